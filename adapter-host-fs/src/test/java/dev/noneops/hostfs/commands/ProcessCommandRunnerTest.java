package dev.noneops.hostfs.commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.commands.Command;
import dev.noneops.ports.commands.CommandResult;
import dev.noneops.ports.commands.CommandRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessCommandRunnerTest {

  private static final Duration GENEROUS = Duration.ofSeconds(30);

  private final CommandRunner runner = new ProcessCommandRunner();

  @Test
  void capturesStdoutStderrAndTheExitCode() throws Exception {
    CommandResult r =
        runner.run(Command.of(GENEROUS, "sh", "-c", "echo out; echo err >&2; exit 3"));

    assertThat(r.exitCode()).isEqualTo(3);
    assertThat(r.stdout()).isEqualTo("out\n");
    assertThat(r.stderr()).isEqualTo("err\n");
    assertThat(r.timedOut()).isFalse();
    assertThat(r.succeeded()).isFalse();
  }

  @Test
  void passesArgvVerbatimWithoutAShell() throws Exception {
    CommandResult r = runner.run(Command.of(GENEROUS, "printf", "%s|", "$HOME", "a b", "*"));

    assertThat(r.stdout()).isEqualTo("$HOME|a b|*|");
    assertThat(r.succeeded()).isTrue();
  }

  @Test
  void addsTheCommandsEnvironmentToTheInheritedOne() throws Exception {
    Command c = new Command(
        List.of("sh", "-c", "echo \"$NONEOPS_X:${PATH:+has-path}\""),
        Map.of("NONEOPS_X", "42"),
        GENEROUS,
        1024);

    assertThat(runner.run(c).stdout()).isEqualTo("42:has-path\n");
  }

  @Test
  void readsNothingFromStdin() throws Exception {
    assertThat(runner.run(Command.of(GENEROUS, "cat")).stdout()).isEmpty();
  }

  @Test
  void killsACommandThatOutlivesItsTimeout() throws Exception {
    long start = System.nanoTime();

    CommandResult r = runner.run(
        Command.of(Duration.ofMillis(300), "sh", "-c", "echo started; sleep 30 & sleep 30"));

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    assertThat(r.timedOut()).isTrue();
    assertThat(r.exitCode()).isEqualTo(-1);
    assertThat(r.stdout()).isEqualTo("started\n");
  }

  @Test
  void keepsOnlyTheCapButDrainsAChattyChildSoItNeverBlocks() throws Exception {
    Command c = new Command(
        List.of(
            "sh",
            "-c",
            "head -c 3000000 /dev/zero >&2; head -c 5000000 /dev/zero | tr '\\0' x; echo"),
        Map.of(),
        GENEROUS,
        1000);

    CommandResult r = runner.run(c);

    assertThat(r.succeeded()).isTrue();
    assertThat(r.stdout()).hasSize(1000).matches("x{1000}");
    assertThat(r.stderr()).hasSize(1000);
  }

  @Test
  void reportsDeathBySignalAs128PlusTheSignal() throws Exception {
    assertThat(runner.run(Command.of(GENEROUS, "sh", "-c", "kill -9 $$")).exitCode())
        .isEqualTo(137);
  }

  @Test
  void returnsWhenTheCommandEndsEvenIfABackgroundChildKeepsItsOutputOpen() throws Exception {
    long start = System.nanoTime();

    CommandResult r = runner.run(Command.of(GENEROUS, "sh", "-c", "sleep 4 & echo parent-done"));

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
    assertThat(r.stdout()).isEqualTo("parent-done\n");
    assertThat(r.succeeded()).isTrue();
  }

  @Test
  void failsWithTheErrnoWhenTheProgramCannotStart(@TempDir Path dir) throws Exception {
    Path notExecutable = Files.writeString(dir.resolve("script"), "#!/bin/sh\n");

    assertThatThrownBy(
            () -> runner.run(Command.of(GENEROUS, dir.resolve("absent").toString())))
        .isInstanceOfSatisfying(HostIOException.class, e -> {
          assertThat(e.errno()).isEqualTo(Errno.ENOENT);
          assertThat(e.target()).isEqualTo(dir.resolve("absent").toString());
        });
    assertThatThrownBy(() -> runner.run(Command.of(GENEROUS, notExecutable.toString())))
        .isInstanceOfSatisfying(
            HostIOException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EACCES));
  }
}
