package dev.noneops.cli.wiring;

import dev.noneops.cli.output.LiveProgress;
import dev.noneops.cli.output.ProgressTerminal;
import dev.noneops.hostfs.nativeio.Syscalls;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntPredicate;

/**
 * The real stderr as a {@link ProgressTerminal}: live progress only when file descriptor 2 is a
 * terminal ({@code isatty(2)}), {@code TERM} names one that can move the cursor, and the terminal
 * library can open it (stdin a terminal too, see {@link JLineStderr}); plain lines otherwise. The
 * check costs one native call, and the terminal library is loaded only after it passed.
 */
final class StderrTerminal implements ProgressTerminal {
  private static final int STDERR = 2;

  private final IntPredicate isTerminal;
  private final Map<String, String> environment;

  StderrTerminal() {
    this(fd -> Syscalls.load().isTerminal(fd), System.getenv());
  }

  StderrTerminal(IntPredicate isTerminal, Map<String, String> environment) {
    this.isTerminal = isTerminal;
    this.environment = environment;
  }

  @Override
  public Optional<LiveProgress> open() {
    if (!drawable()) {
      return Optional.empty();
    }
    return JLineStderr.open();
  }

  /** Whether stderr is a terminal whose type can redraw lines in place. */
  boolean drawable() {
    String term = environment.getOrDefault("TERM", "");
    if (term.isEmpty() || term.equals("dumb") || term.startsWith("dumb-")) {
      return false;
    }
    return isTerminal.test(STDERR);
  }
}
