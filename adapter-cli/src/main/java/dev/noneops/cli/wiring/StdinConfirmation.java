package dev.noneops.cli.wiring;

import dev.noneops.cli.Confirmation;
import dev.noneops.hostfs.nativeio.Syscalls;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import java.util.function.IntPredicate;

/**
 * The real stdin as a {@link Confirmation}: asks only when file descriptor 0 is a terminal
 * ({@code isatty(0)}), prints the question with {@code [y/N]} on stderr and reads one line; "y"
 * or "yes" (any case) is yes, anything else (an empty line, end of input) no. Public for the
 * demo's entry point, which asks before it boots a sandbox.
 */
public final class StdinConfirmation implements Confirmation {
  private static final int STDIN = 0;

  private final IntPredicate isTerminal;
  private final InputStream in;

  /** Over this process's stdin. */
  public StdinConfirmation() {
    this(fd -> Syscalls.load().isTerminal(fd), System.in);
  }

  StdinConfirmation(IntPredicate isTerminal, InputStream in) {
    this.isTerminal = isTerminal;
    this.in = in;
  }

  @Override
  public Optional<Boolean> ask(PrintWriter err, String question) {
    if (!isTerminal.test(STDIN)) {
      return Optional.empty();
    }
    err.print(question + " [y/N] ");
    err.flush();
    try {
      String answer = answerLine().strip().toLowerCase(Locale.ROOT);
      return Optional.of(answer.equals("y") || answer.equals("yes"));
    } catch (IOException e) {
      return Optional.of(false);
    }
  }

  /**
   * One line, a byte at a time: nothing after it is read, so what follows on stdin stays for the
   * command (the demo's shell waits for its end).
   */
  private String answerLine() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); b >= 0 && b != '\n'; b = in.read()) {
      line.write(b);
    }
    return line.toString(StandardCharsets.UTF_8);
  }
}
