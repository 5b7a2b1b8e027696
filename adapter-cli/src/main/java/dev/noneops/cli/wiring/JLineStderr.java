package dev.noneops.cli.wiring;

import dev.noneops.cli.output.LiveProgress;
import dev.noneops.cli.output.TerminalProgress;
import dev.noneops.ports.events.NodeEvent;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * Opens JLine's system terminal on stderr for {@link TerminalProgress}. Only this class names
 * the terminal library, and it is loaded only when progress is shown on a terminal. JLine gives
 * a dumb terminal when it cannot drive the real one (stdin redirected, say): then empty, and the
 * progress is plain lines. While it is drawn, what is written to {@code System.err} (log lines)
 * is printed above it.
 */
final class JLineStderr {
  private JLineStderr() {}

  static Optional<LiveProgress> open() {
    Terminal terminal;
    try {
      terminal = TerminalBuilder.builder()
          .system(true)
          .systemOutput(TerminalBuilder.SystemOutput.SysErr)
          .dumb(true)
          .nativeSignals(true)
          .build();
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
    String type = terminal.getType();
    if (type == null
        || type.startsWith(Terminal.TYPE_DUMB)
        || terminal.getSize().getColumns() <= 0) {
      try {
        terminal.close();
      } catch (IOException e) {
        // a dumb terminal holds nothing to release
      }
      return Optional.empty();
    }
    LiveProgress progress = new LogsAbove(new TerminalProgress(terminal));
    Runtime.getRuntime().addShutdownHook(new Thread(progress::close, "noneops-progress-close"));
    return Optional.of(progress);
  }

  /**
   * While the progress is drawn, {@code System.err} (where the log lines go) prints above its
   * block instead of into it, and the block is redrawn five times a second so that the running
   * phases' times go on; closing stops the redraws and gives the original stream back first.
   */
  private static final class LogsAbove implements LiveProgress {
    private static final long TICK_MS = 200;

    private final TerminalProgress progress;
    private final PrintStream original = System.err;
    private final ScheduledExecutorService ticker =
        Executors.newSingleThreadScheduledExecutor(r -> {
          Thread t = new Thread(r, "noneops-progress-tick");
          t.setDaemon(true);
          return t;
        });

    LogsAbove(TerminalProgress progress) {
      this.progress = progress;
      System.setErr(progress.stderrAbove());
      ticker.scheduleAtFixedRate(
          () -> progress.tick(Instant.now()), TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
    }

    @Override
    public void onEvent(NodeEvent event) {
      progress.onEvent(event);
    }

    @Override
    public void close() {
      ticker.shutdownNow();
      System.setErr(original);
      progress.close();
    }
  }
}
