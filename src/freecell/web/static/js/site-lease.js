// Which tab of the static site plays its games: each tab keeps its own copy of them and
// saves it whole, so two at once would undo each other's moves. Web Locks exist only in
// secure contexts, and a lock is handed to a waiting tab the moment the holder reloads, so
// the tabs share a lease in IndexedDB instead, which every context has: a record naming the
// tab that holds it and until when, taken and renewed in one readwrite transaction (which
// IndexedDB runs one at a time across tabs). The holder renews it every second; a tab that
// is closed stops renewing, and a waiting tab takes the lease once it has run out. A tab
// that reloads carries its name over in sessionStorage, so it finds the lease still its own.

const DATABASE = "freecell-site-tabs";
const LEASES = "leases";
const LEASE_MS = 5000; // room for a reload on a busy machine
const RENEW_MS = 1000;
const RETRY_MS = 1000;
const HANDOVER = "freecell.site.tab"; // sessionStorage: this tab's name, across a reload

function tabName() {
  const carried = sessionStorage.getItem(HANDOVER);
  sessionStorage.removeItem(HANDOVER); // a tab duplicated later must not inherit it
  if (carried) {
    return carried;
  }
  const bytes = crypto.getRandomValues(new Uint8Array(12)); // randomUUID needs a secure context
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function openDatabase() {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open(DATABASE, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(LEASES);
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error);
    opening.onblocked = () => reject(new Error("the tabs' lease could not be opened"));
  });
}

/**
 * The lease on the site at `scope` (its folder). `hold({waiting, lost, gone})` resolves once
 * this tab holds it, calling `waiting()` while another tab does; later, `lost()` is called
 * if another tab took it (this tab stopped renewing it, frozen in the background), and
 * `gone(error)` if the browser's storage went away (site data cleared).
 */
export class TabLease {
  constructor(scope) {
    this.scope = scope;
    this.name = tabName();
    this.db = null;
    this.ended = false;
    this.lastSeen = null; // when a tab last renewed the lease before this one took it (ms)
  }

  async hold({ waiting, lost, gone }) {
    this.db = await openDatabase();
    // The browser closes the connection itself when the site's data is cleared.
    this.db.onclose = () => this.end(() => gone(new Error("the browser's storage for this site was cleared")));
    let told = false;
    while (!(await this.take())) {
      if (!told) {
        told = true;
        waiting();
      }
      await new Promise((resolve) => { setTimeout(resolve, RETRY_MS); });
    }
    addEventListener("pagehide", () => {
      if (!this.ended) {
        sessionStorage.setItem(HANDOVER, this.name); // a reload keeps the game in this tab
      }
    });
    addEventListener("pageshow", () => sessionStorage.removeItem(HANDOVER)); // back from the page cache
    this.timer = setInterval(() => {
      this.take().then(
        (held) => held || this.end(lost),
        (error) => this.end(() => gone(error)),
      );
    }, RENEW_MS);
  }

  end(tell) {
    if (!this.ended) {
      this.ended = true;
      clearInterval(this.timer);
      tell();
    }
  }

  /** Take or renew the lease if it is free, run out, or this tab's: whether this tab holds it now. */
  take() {
    return new Promise((resolve, reject) => {
      const transaction = this.db.transaction(LEASES, "readwrite");
      const leases = transaction.objectStore(LEASES);
      let held = false;
      leases.get(this.scope).onsuccess = (event) => {
        const lease = event.target.result;
        const now = Date.now();
        held = !lease || lease.tab === this.name || lease.until < now;
        if (held && !this.timer && lease) {
          this.lastSeen = lease.until - LEASE_MS;
        }
        if (held) {
          leases.put({ tab: this.name, until: now + LEASE_MS }, this.scope);
        }
      };
      transaction.oncomplete = () => resolve(held && !this.ended);
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error ?? new Error("the tabs' lease could not be kept"));
    });
  }
}
