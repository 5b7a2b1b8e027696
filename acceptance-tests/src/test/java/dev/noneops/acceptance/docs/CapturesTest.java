package dev.noneops.acceptance.docs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.cli.SimCli.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The captures of {@code docs/reference/captures/} still show what their commands print: each
 * capture that starts with {@code node# <command line>} is run again through the CLI on the
 * simulated host, in the state the capture was taken in, and the first lines of its output must be
 * the capture's once what legitimately differs between runs and hosts is normalized (a version
 * name's hash, pids, times, durations, sizes; the CLI's log lines are left out). Captures that cannot be compared there (screens of a
 * terminal's live block, man pages, the demo's banner) are listed with the reason; a capture that
 * is in neither list fails the test, so a new one has to be classified.
 */
class CapturesTest {
  static final Path DIR = Path.of("..", "docs", "reference", "captures");

  /** The state of the node when the capture was taken. */
  enum Setup {
    /** The demo's configuration written, no node. */
    NO_NODE,
    /** The node bootstrapped from the demo's configuration, its agent installed. */
    BOOTSTRAPPED,
    /** Bootstrapped, and {@code /root/bad.json}: a misspelt key and a version without patch. */
    BAD_CONFIG,
    /**
     * Bootstrapped, and {@code /root/kubelet-never-ready.json} (a target whose kubelet never gets
     * ready) to which one upgrade was already rolled back.
     */
    ROLLED_BACK_ONCE
  }

  /**
   * A comparable capture: the state it was taken in, how many of its output lines (after the
   * command line) must match, and what the operator answered on the terminal, if anything.
   */
  record Comparable(Setup setup, int lines, String answer) {
    Comparable(Setup setup, int lines) {
      this(setup, lines, null);
    }
  }

  static final Map<String, Comparable> COMPARED = Map.ofEntries(
      Map.entry("preflight-tty.txt", new Comparable(Setup.NO_NODE, 1)),
      Map.entry("preflight-pipe.txt", new Comparable(Setup.NO_NODE, 1)),
      Map.entry("preflight-json-pipe.txt", new Comparable(Setup.NO_NODE, 7)),
      Map.entry("bootstrap-pipe.txt", new Comparable(Setup.NO_NODE, 3)),
      Map.entry("status-tty.txt", new Comparable(Setup.BOOTSTRAPPED, 4)),
      Map.entry("status-pipe.txt", new Comparable(Setup.BOOTSTRAPPED, 4)),
      Map.entry("versions-tty.txt", new Comparable(Setup.BOOTSTRAPPED, 1)),
      Map.entry("statsu-tty.txt", new Comparable(Setup.NO_NODE, 3)),
      Map.entry("statsu-pipe.txt", new Comparable(Setup.NO_NODE, 2)),
      Map.entry("upgrade-bad-config-tty.txt", new Comparable(Setup.BAD_CONFIG, 2)),
      Map.entry("upgrade-bad-config-pipe.txt", new Comparable(Setup.BAD_CONFIG, 1)),
      Map.entry("upgrade-missing-config-tty.txt", new Comparable(Setup.BOOTSTRAPPED, 2)),
      Map.entry("upgrade-retried-without-force-tty.txt", new Comparable(Setup.ROLLED_BACK_ONCE, 2)),
      Map.entry("upgrade-rolled-back-pipe.txt", new Comparable(Setup.ROLLED_BACK_ONCE, 4)),
      Map.entry("reset-tty.txt", new Comparable(Setup.BOOTSTRAPPED, 1, "y")),
      Map.entry("reset-dry-run-tty.txt", new Comparable(Setup.BOOTSTRAPPED, 1)));

  static final Map<String, String> NOT_COMPARED = Map.ofEntries(
      Map.entry("README.md", "how the captures were taken, no capture"),
      Map.entry("demo-shell.txt", "the demo's banner: a sandbox's pid, port and paths"),
      Map.entry("man-noneops-status-tty.txt", "a man page as man renders it, no CLI command"),
      Map.entry("man-noneops-status-pipe.txt", "a man page as man renders it, no CLI command"),
      Map.entry("bootstrap-tty-1-three-bars.txt", "a terminal's live block mid-download"),
      Map.entry("bootstrap-tty-2-containerd-half-way.txt", "a terminal's live block mid-download"),
      Map.entry(
          "bootstrap-tty-3-containerd-almost-done.txt", "a terminal's live block mid-download"),
      Map.entry("bootstrap-tty-4-starting-the-stack.txt", "a terminal's live block mid-bootstrap"),
      Map.entry(
          "bootstrap-tty-5-done.txt", "a terminal's screen, its lines timed by real downloads"),
      Map.entry(
          "bootstrap-tty-scrollback.txt",
          "a terminal's rendering (one line per phase as it ends, real download rates)"),
      Map.entry(
          "upgrade-rolled-back-tty-1-waiting-for-kubelet.txt",
          "a terminal's live block, its command line scrolled off"),
      Map.entry(
          "upgrade-tty.txt",
          "a terminal's rendering (one line per phase as it ends, real download rates)"),
      Map.entry(
          "upgrade-rolled-back-tty-scrollback.txt",
          "a terminal's rendering (one line per phase as it ends, real download rates)"));

  static final String PROMPT = "node# ";

  /**
   * A line of the CLI's log (a time, a level, the logger): on the node it goes to the terminal with
   * the command's stderr; on the simulated host to the test's own stderr, not to the command's.
   */
  static final Pattern LOG_LINE =
      Pattern.compile("^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} (TRACE|DEBUG|INFO|WARN|ERROR) \\S+ - ");

  @Test
  void everyCaptureIsComparedOrSaysWhyNot() throws IOException {
    TreeSet<String> files = new TreeSet<>();
    try (Stream<Path> list = Files.list(DIR)) {
      list.forEach(p -> files.add(p.getFileName().toString()));
    }
    TreeSet<String> classified = new TreeSet<>(COMPARED.keySet());
    classified.addAll(NOT_COMPARED.keySet());

    assertThat(files)
        .as("every capture is classified, and every classified capture exists")
        .isEqualTo(classified);
  }

  static Stream<String> compared() {
    return COMPARED.keySet().stream().sorted();
  }

  @ParameterizedTest
  @MethodSource("compared")
  void theCommandStillPrintsWhatTheCaptureShows(String file) throws IOException {
    List<String> capture = Files.readAllLines(DIR.resolve(file), UTF_8);
    Comparable comparable = COMPARED.get(file);
    assertThat(capture.get(0)).as(file + " starts with the command line").startsWith(PROMPT);
    Command command = Command.parse(capture.get(0).substring(PROMPT.length()));

    SimCli cli = new SimCli(SimulatedHost.create()).withAgent();
    setUp(cli, comparable.setup());
    if (comparable.answer() != null) {
      cli.onATerminalAnswering(comparable.answer());
    }
    Run run = cli.run(command.args());
    List<String> printed = new ArrayList<>(
        switch (command.streams()) {
          case STDOUT -> run.out().lines().toList();
          case BOTH -> Stream.concat(run.err().lines(), run.out().lines()).toList();
        });
    if (command.echoesExit()) {
      printed.add("(exit " + run.exitCode() + ")");
    }
    if (printed.size() < comparable.lines()) {
      printed.add(PROMPT.strip());
    }

    List<String> shown = capture.subList(1, capture.size()).stream()
        .filter(l -> !LOG_LINE.matcher(l).find())
        .toList();
    List<String> expected = shown.subList(0, Math.min(shown.size(), comparable.lines())).stream()
        .map(CapturesTest::normalized)
        .toList();
    List<String> actual = printed.subList(0, Math.min(printed.size(), comparable.lines())).stream()
        .map(CapturesTest::normalized)
        .toList();
    assertThat(actual)
        .as(file + ": the first lines of `" + String.join(" ", command.args()) + "`\n" + "stdout:\n"
            + run.out() + "stderr:\n" + run.err())
        .isEqualTo(expected);
  }

  private static void setUp(SimCli cli, Setup setup) {
    String config = ConfigJson.of("1.31.4").json();
    cli.configure(SimCli.CONFIG, config);
    if (setup == Setup.NO_NODE) {
      return;
    }
    Run bootstrap = cli.run("bootstrap");
    assertThat(bootstrap.exitCode()).as(bootstrap.err()).isZero();
    switch (setup) {
      case BAD_CONFIG ->
        write(
            cli,
            Path.of("/root/bad.json"),
            config.replace("MachineName", "MachineNmae").replace("\"v1.31.4\"", "\"1.31\""));
      case ROLLED_BACK_ONCE -> {
        String target = cli.configure(
            Path.of("/root/kubelet-never-ready.json"), ConfigJson.of("1.31.5").json());
        cli.kubeletNeverReady(target);
        Run upgrade = cli.run(
            "upgrade",
            "--force",
            "--config",
            "/root/kubelet-never-ready.json",
            "--kubelet-timeout",
            "10s");
        assertThat(upgrade.exitCode()).as(upgrade.err()).isNotZero();
      }
      default -> {}
    }
  }

  private static void write(SimCli cli, Path path, String text) {
    try {
      cli.host().ports().files().createDirectories(path.getParent(), 0700);
      cli.host().ports().files().writeDurably(path, text, 0600);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * What differs between two runs or two hosts, replaced by a placeholder: a version name's hash,
   * pids, times, durations, uptimes, sizes, counts of files, rates.
   */
  static String normalized(String line) {
    return line.replaceAll("(\\d+\\.\\d+\\.\\d+)-[0-9a-f]{12}", "$1-HASH")
        .replaceAll("\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z", "TIME")
        .replaceAll("(pid|process) \\d+", "$1 PID")
        .replaceAll("\\bup (\\d+[dhms] ?)+", "up UPTIME")
        .replaceAll("\\d+(\\.\\d+)? [KMG]?iB(/s)?", "SIZE")
        .replaceAll("\\b\\d+ files\\b", "N files")
        .replaceAll("and \\d+ more", "and N more")
        .replaceAll("\\d+(\\.\\d+)? s\\b", "DURATION")
        .replaceAll(" {2,}", "  ")
        .stripTrailing();
  }

  enum Streams {
    STDOUT,
    BOTH
  }

  /**
   * A capture's command line: {@code noneops ARGS} and what the shell added, {@code ; echo "(exit
   * $?)"}, {@code | cat} (stdout), {@code 2>&1 | cat} (both streams), {@code | head -c N; echo}.
   */
  record Command(List<String> argList, Streams streams, boolean echoesExit) {
    String[] args() {
      return argList.toArray(String[]::new);
    }

    static Command parse(String line) {
      String rest = line.strip();
      boolean echoesExit = false;
      Streams streams = Streams.BOTH;
      String exitEcho = "; echo \"(exit $?)\"";
      if (rest.endsWith(exitEcho)) {
        echoesExit = true;
        rest = rest.substring(0, rest.length() - exitEcho.length());
      }
      rest = rest.replaceAll("\\s*\\|\\s*head -c \\d+; echo$", " | cat");
      if (rest.endsWith(" 2>&1 | cat")) {
        rest = rest.substring(0, rest.length() - " 2>&1 | cat".length());
      } else if (rest.endsWith(" | cat")) {
        streams = Streams.STDOUT;
        rest = rest.substring(0, rest.length() - " | cat".length());
      }
      List<String> words = Arrays.asList(rest.strip().split("\\s+"));
      assertThat(words.get(0)).as(line).isEqualTo("noneops");
      return new Command(words.subList(1, words.size()), streams, echoesExit);
    }
  }
}
