package dev.noneops.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * The line protocol of the agent's daemon socket, version {@value #VERSION}. The CLI sends one
 * request line, {@code noneops-answer/1 <build> <command> <text|json>}; the daemon answers, once,
 * with one header line and closes:
 *
 * <ul>
 *   <li>{@code noneops-answer/1 answered <exit code> <length>}, then exactly {@code length} bytes,
 *       what the command prints on stdout;
 *   <li>{@code noneops-answer/1 mismatch <daemon's build>} when the builds differ: the CLI
 *       inspects the host itself, since another build may print something else;
 *   <li>{@code noneops-answer/1 refused <reason>} for a request it cannot take or could not
 *       answer.
 * </ul>
 *
 * <p>A request line is at most {@value #MAX_REQUEST_BYTES} bytes with its newline, an answer at
 * most {@value #MAX_ANSWER_BYTES}. Anything else is a {@link ProtocolException}.
 */
final class AnswerProtocol {
  static final int VERSION = 1;
  static final String MAGIC = "noneops-answer/" + VERSION;
  static final int MAX_REQUEST_BYTES = 512;
  static final int MAX_ANSWER_BYTES = 1 << 20;

  private static final String TEXT = "text";
  private static final String JSON = "json";

  private AnswerProtocol() {}

  /** A line or answer that does not follow the protocol. */
  static final class ProtocolException extends IOException {
    private static final long serialVersionUID = 1L;

    ProtocolException(String message) {
      super(message);
    }
  }

  /** What the CLI asks: {@code what} as {@code build} prints it, as text or JSON. */
  record Request(String build, Inspection what, boolean json) {
    Request {
      requireWord(build, "build");
      Objects.requireNonNull(what, "what");
    }

    /** The request line, its newline included. */
    byte[] encode() {
      return (MAGIC + " " + build + " " + what.command() + " " + (json ? JSON : TEXT) + "\n")
          .getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The request in {@code line} (without its newline).
     *
     * @throws ProtocolException when it is not a request of this protocol version
     */
    static Request parse(String line) throws ProtocolException {
      String[] words = line.split(" ", -1);
      if (words.length == 0 || !words[0].equals(MAGIC)) {
        throw new ProtocolException("not a " + MAGIC + " request");
      }
      if (words.length != 4 || !isWord(words[1]) || !isWord(words[2]) || !isWord(words[3])) {
        throw new ProtocolException("expected '" + MAGIC + " BUILD COMMAND text|json'");
      }
      Inspection what = Inspection.named(words[2])
          .orElseThrow(() -> new ProtocolException("no such inspection: " + words[2]));
      if (!words[3].equals(TEXT) && !words[3].equals(JSON)) {
        throw new ProtocolException("output form must be text or json, not " + words[3]);
      }
      return new Request(words[1], what, words[3].equals(JSON));
    }
  }

  /** The daemon's answer as the CLI prints it: the exit code and the bytes of stdout. */
  record Answer(int exitCode, byte[] stdout) {}

  /** The answer carrying {@code report}. */
  static byte[] answered(InspectionReport report) {
    byte[] body = report.stdout().getBytes(StandardCharsets.UTF_8);
    byte[] header = (MAGIC + " answered " + report.exitCode().code() + " " + body.length + "\n")
        .getBytes(StandardCharsets.UTF_8);
    byte[] all = Arrays.copyOf(header, header.length + body.length);
    System.arraycopy(body, 0, all, header.length, body.length);
    return all;
  }

  /** The answer to a request of another build than the daemon's {@code build}. */
  static byte[] mismatch(String build) {
    return (MAGIC + " mismatch " + build + "\n").getBytes(StandardCharsets.UTF_8);
  }

  /** The answer to a request the daemon cannot take or could not answer. */
  static byte[] refused(String reason) {
    return (MAGIC + " refused " + reason.replaceAll("[\\r\\n]+", " ") + "\n")
        .getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The answer in {@code received}, everything the daemon sent before it closed.
   *
   * @throws ProtocolException for a mismatch, a refusal, or bytes that are not an answer
   */
  static Answer parseAnswer(byte[] received) throws ProtocolException {
    int newline = indexOf(received, (byte) '\n');
    if (newline < 0) {
      throw new ProtocolException("no answer line");
    }
    String header = new String(received, 0, newline, StandardCharsets.UTF_8);
    String[] words = header.split(" ", 4);
    if (words.length < 2 || !words[0].equals(MAGIC)) {
      throw new ProtocolException("not a " + MAGIC + " answer: " + abbreviated(header));
    }
    switch (words[1]) {
      case "mismatch" ->
        throw new ProtocolException(
            "the daemon runs another build" + (words.length > 2 ? ": " + words[2] : ""));
      case "refused" ->
        throw new ProtocolException("the daemon refused: "
            + abbreviated(header.substring((MAGIC + " refused").length()).strip()));
      case "answered" -> {
        if (words.length != 4) {
          throw new ProtocolException("malformed answer line: " + abbreviated(header));
        }
        int exit = number(words[2], 255);
        int length = number(words[3], MAX_ANSWER_BYTES);
        if (received.length - newline - 1 != length) {
          throw new ProtocolException("answer of " + (received.length - newline - 1)
              + " bytes where its line says " + length);
        }
        return new Answer(exit, Arrays.copyOfRange(received, newline + 1, received.length));
      }
      default -> throw new ProtocolException("unknown answer: " + abbreviated(header));
    }
  }

  static int indexOf(byte[] bytes, byte b) {
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == b) {
        return i;
      }
    }
    return -1;
  }

  private static int number(String word, int max) throws ProtocolException {
    if (!word.matches("[0-9]{1,9}") || Integer.parseInt(word) > max) {
      throw new ProtocolException("not a number up to " + max + ": " + abbreviated(word));
    }
    return Integer.parseInt(word);
  }

  private static boolean isWord(String s) {
    if (s.isEmpty() || s.length() > 128) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) <= ' ' || s.charAt(i) >= 127) {
        return false;
      }
    }
    return true;
  }

  private static void requireWord(String s, String what) {
    if (s == null || !isWord(s)) {
      throw new IllegalArgumentException(what + " must be one printable word: " + s);
    }
  }

  private static String abbreviated(String s) {
    return s.length() <= 80 ? s : s.substring(0, 80) + "...";
  }
}
