"""What every worker process this package starts does first: go when its parent goes.

A process pool's workers wait on a queue that they hold both ends of, so when the parent
is killed (``kill -9``, the OOM killer) nothing tells them, and they and multiprocessing's
resource tracker would live on as orphans. A thread in each worker watches the parent
instead: polling ``getppid`` works on every Unix, and unlike ``PR_SET_PDEATHSIG`` it does
not fire when merely the parent's thread that started the worker ends.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from typing import Final

#: How often a worker looks for its parent, in seconds.
PARENT_POLL_SECONDS: Final = 0.5


def exit_with_parent(parent: int) -> None:
    """In a worker: exit at once (``os._exit``) when the process ``parent`` is no longer
    this process's parent, which is when it has died. Returns at once; a daemon thread
    watches."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def start_pool_worker(parent: int) -> None:
    """A pool worker's initializer: Ctrl-C is for the parent, which stops the pool (the
    worker just goes with it), and the worker exits when the parent dies."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_with_parent(parent)
