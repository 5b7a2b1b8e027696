package dev.noneops.hostfs.commands;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.commands.Command;
import dev.noneops.ports.commands.CommandResult;
import dev.noneops.ports.commands.CommandRunner;
import java.io.File;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs commands with {@link ProcessBuilder}: argv only (no shell), the agent's environment plus
 * the command's, stdin from {@code /dev/null}. Standard output and error are drained concurrently
 * into bounded buffers. On timeout the process and its descendants are killed and the result says
 * {@code timedOut}.
 */
public final class ProcessCommandRunner implements CommandRunner {

  private static final Pattern START_ERRNO = Pattern.compile("error=(\\d+)");
  private static final File DEV_NULL = new File("/dev/null");

  private final Duration drainGrace;

  /** A runner that waits up to one second for output still in flight after a process ends. */
  public ProcessCommandRunner() {
    this(Duration.ofSeconds(1));
  }

  /**
   * @param drainGrace how long to keep reading output after the process ended; a grandchild that
   *     inherited the pipes and lives on must not hold the caller up
   */
  public ProcessCommandRunner(Duration drainGrace) {
    this.drainGrace = drainGrace;
  }

  @Override
  public CommandResult run(Command command) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command.argv()).redirectInput(DEV_NULL);
    builder.environment().putAll(command.env());
    Process process = start(builder, command);
    BoundedCapture stdout = new BoundedCapture(process.getInputStream(), command.maxOutputBytes());
    BoundedCapture stderr = new BoundedCapture(process.getErrorStream(), command.maxOutputBytes());
    Thread outDrain = drain(stdout, "stdout", process);
    Thread errDrain = drain(stderr, "stderr", process);
    boolean finished;
    try {
      finished = process.waitFor(command.timeout().toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      destroyTree(process);
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while running " + command);
    }
    if (!finished) {
      destroyTree(process);
      awaitQuietly(process);
    }
    joinDrains(outDrain, errDrain);
    int exit = finished ? process.exitValue() : -1;
    return new CommandResult(exit, stdout.text(), stderr.text(), !finished);
  }

  private static Process start(ProcessBuilder builder, Command command) throws IOException {
    try {
      return builder.start();
    } catch (IOException e) {
      Matcher m = START_ERRNO.matcher(String.valueOf(e.getMessage()));
      Errno errno = m.find() ? Errno.of(Integer.parseInt(m.group(1))) : Errno.EOTHER;
      throw new HostIOException(errno, "exec", command.argv().get(0), e);
    }
  }

  private static Thread drain(BoundedCapture capture, String stream, Process process) {
    Thread t = new Thread(capture, "command-" + process.pid() + "-" + stream);
    t.setDaemon(true);
    t.start();
    return t;
  }

  private void joinDrains(Thread... drains) throws InterruptedIOException {
    long deadline = System.nanoTime() + drainGrace.toNanos();
    for (Thread t : drains) {
      try {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        t.join(Math.max(1, left));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while collecting command output");
      }
    }
  }

  private static void destroyTree(Process process) {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
  }

  private static void awaitQuietly(Process process) throws InterruptedIOException {
    try {
      process.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while ending a timed-out command");
    }
  }
}
