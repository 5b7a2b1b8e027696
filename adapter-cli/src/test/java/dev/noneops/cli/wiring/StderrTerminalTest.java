package dev.noneops.cli.wiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.noneops.cli.output.ScreenEmulator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Live progress only where stderr really is a terminal: decided by {@code isatty(2)} and {@code
 * TERM}, and checked end to end in a child process on a pseudo-terminal ({@code script}) and
 * through a pipe.
 */
class StderrTerminalTest {
  private static final Path SCRIPT = Path.of("/usr/bin/script");

  @Test
  void aTerminalOfADrawableTypeIsDrawable() {
    assertThat(new StderrTerminal(fd -> fd == 2, Map.of("TERM", "xterm-256color")).drawable())
        .isTrue();
  }

  @Test
  void aPipeOrADumbTerminalIsNot() {
    assertThat(new StderrTerminal(fd -> false, Map.of("TERM", "xterm")).drawable())
        .isFalse();
    assertThat(new StderrTerminal(fd -> true, Map.of("TERM", "dumb")).drawable())
        .isFalse();
    assertThat(new StderrTerminal(fd -> true, Map.of()).drawable()).isFalse();
  }

  @Test
  void onAPseudoTerminalTheDownloadIsABarAndThePhaseEndsWithOk() throws Exception {
    assumeTrue(Files.isExecutable(SCRIPT), "script(1) gives the child a pseudo-terminal");
    // script's terminal has no size until it is given one, as a terminal window has
    String probe = "stty cols 100 rows 30; " + String.join(" ", probeCommand());
    String screen = run(List.of(SCRIPT.toString(), "-qec", probe, "/dev/null"), "xterm-256color");

    assertThat(screen).as("the bar, redrawn in place").contains("ETA").doesNotContain("  ... ");
    assertThat(new ScreenEmulator(100).write(screen).lines())
        .containsExactly(
            "  download-kubelet 100.0 MiB at 25.0 MiB/s          ok 4.00 s",
            "  install                                           ok 5.00 s");
  }

  @Test
  void throughAPipeTheLinesArePlain() throws Exception {
    String output = run(probeCommand(), "xterm-256color");

    assertThat(output.lines())
        .containsExactly(
            "  ... install",
            "  ... download-kubelet: 0.0 MiB / 100.0 MiB",
            "  ... download-kubelet: 50.0 MiB / 100.0 MiB at 25.0 MiB/s",
            "  ... download-kubelet: 100.0 MiB / 100.0 MiB at 25.0 MiB/s",
            "  ok  install (5.00 s)");
  }

  private static List<String> probeCommand() {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(LiveProgressProbe.class.getName());
    return command;
  }

  private static String run(List<String> command, String term)
      throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("TERM", term);
    builder.redirectInput(ProcessBuilder.Redirect.PIPE);
    Process process = builder.start();
    process.getOutputStream().close();
    byte[] out = process.getInputStream().readAllBytes();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(new String(out, StandardCharsets.UTF_8)).isZero();
    return new String(out, StandardCharsets.UTF_8);
  }
}
