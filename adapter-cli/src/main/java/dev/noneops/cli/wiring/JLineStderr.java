package dev.noneops.cli.wiring;

import dev.noneops.cli.output.LiveProgress;
import dev.noneops.cli.output.TerminalProgress;
import java.io.IOException;
import java.util.Optional;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * Opens JLine's system terminal on stderr for {@link TerminalProgress}. Only this class names
 * the terminal library, and it is loaded only when progress is shown on a terminal. JLine gives
 * a dumb terminal when it cannot drive the real one (stdin redirected, say): then empty, and the
 * progress is plain lines.
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
    TerminalProgress progress = new TerminalProgress(terminal);
    Runtime.getRuntime().addShutdownHook(new Thread(progress::close, "noneops-progress-close"));
    return Optional.of(progress);
  }
}
