package dev.noneops.testkit.systemd;

import java.io.IOException;
import java.util.List;

/**
 * What a program does when a simulated unit runs it ({@link SimSystemd#installProgram}): a fixture
 * gives the simulated systemd the behaviour of, say, {@code noneops recover --at-boot}.
 *
 * <p>The program runs inside its unit's start job, on the calling thread, while the simulated
 * host's monitor is held, as the unit's main process: its unit is {@code activating}. It may call
 * the host's ports (files, systemd's {@code daemonReload} or {@code status}, ...) from that thread;
 * a call that waits for its own unit's start job waits until that call's timeout, as it would
 * under a real systemd. An {@link IOException} that escapes it is what a real program does with an
 * error it does not handle: it exits with status 1.
 */
@FunctionalInterface
public interface SimProgram {

  /**
   * Runs the program with its command line ({@code argv[0]} first, as {@code ExecStart=} gives it,
   * variables expanded). Returns its exit status: for a {@code Type=oneshot} unit, the program runs
   * to completion and 0 means success; for a long-running service it is the start-up, after which
   * 0 means the service is up and runs on, anything else that its main process exited with that
   * status before it was ready.
   */
  int run(List<String> argv) throws IOException;
}
