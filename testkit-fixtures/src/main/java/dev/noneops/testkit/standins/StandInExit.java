package dev.noneops.testkit.standins;

/**
 * Makes a stand-in end on SIGTERM as the Go program it stands for does: promptly and cleanly. A JVM
 * that exits waits up to ~300 ms for threads blocked in native code (a server's {@code accept},
 * {@code epoll_wait} or {@code recvfrom}) to come back, and reports status 143, which systemd
 * records as a failed stop; closing what the threads block on, then halting with status 0, spares
 * both, which would otherwise be counted in every stop the stand-ins take part in.
 */
final class StandInExit {
  private StandInExit() {}

  /** On shutdown, runs {@code unblock} (closing the stand-in's sockets), then halts with status 0. */
  static void promptly(Runnable unblock) {
    Runtime.getRuntime()
        .addShutdownHook(new Thread(
            () -> {
              unblock.run();
              Runtime.getRuntime().halt(0);
            },
            "stand-in-exit"));
  }
}
