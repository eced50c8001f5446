// Links to a deal: "/?code=FC1-ST4-N00000K9Z" or "/?deal=617&rules=standard&cells=4", with
// "&moves=38,4h,…" to play those moves again when the link is opened. The Share panel
// writes such a link for the game on the table (dialogs/share.js).

/** The new-game request a link's query asks for, or null when it names no deal. */
export function linkRequest(search) {
  const params = new URLSearchParams(search);
  let body = null;
  if (params.get("code")) {
    body = { code: params.get("code").trim() };
  } else if (params.get("deal")) {
    // Without rules, the server deals its default rules.
    body = { deal: Number(params.get("deal")) };
    if (params.get("rules")) {
      body.rules = params.get("rules");
    }
    if (params.get("cells")) {
      body.cells = Number(params.get("cells"));
    }
  }
  const moves = params.get("moves");
  if (body && moves) {
    body.moves = moves.split(/[\s,]+/).filter(Boolean);
  }
  return body;
}

/** The link that opens `state`'s deal (and plays its moves so far, with `withMoves`), at
 * `address` (a published site's, a server's on the network) or else the page's own folder. */
export function shareLink(state, withMoves, address = null) {
  // the page's folder: "/" on the server, the static site's anywhere
  const url = new URL(address ?? ".", document.baseURI);
  url.searchParams.set("code", state.code);
  if (withMoves && state.played.length) {
    url.searchParams.set("moves", state.played.join(","));
  }
  return url.href;
}
