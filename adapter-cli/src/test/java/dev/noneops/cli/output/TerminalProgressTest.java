package dev.noneops.cli.output;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.ports.events.NodeEvent;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jline.terminal.Size;
import org.jline.terminal.impl.ExternalTerminal;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The live progress on a terminal, drawn on an xterm that is a byte stream and read back as the
 * screen a terminal shows after those bytes.
 */
class TerminalProgressTest {
  private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
  private static final long MIB = 1048576;

  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private TerminalProgress progress;

  @BeforeEach
  void xterm() throws IOException {
    ExternalTerminal terminal = new ExternalTerminal(
        "test",
        "xterm-256color",
        new ByteArrayInputStream(new byte[0]),
        bytes,
        StandardCharsets.UTF_8);
    terminal.setSize(new Size(100, 30));
    progress = new TerminalProgress(terminal);
  }

  @Test
  void aDownloadIsOneBarRedrawnInPlaceWithBytesRateAndTimeLeft() {
    progress.onEvent(event(0, "install", NodeEvent.Kind.STARTED, 0));
    progress.onEvent(download(0, "download-kubelet", 0, 100 * MIB));
    progress.onEvent(download(1_000, "download-kubelet", 20 * MIB, 100 * MIB));
    progress.onEvent(download(2_000, "download-kubelet", 50 * MIB, 100 * MIB));

    assertThat(screen())
        .containsExactly(
            "  … install  2.00 s",
            "  download-kubelet [████████████░░░░░░░░░░░░] 50.0 / 100.0 MiB  25.0 MiB/s  ETA 2 s");
  }

  @Test
  void phasesEndAsOneLineEachWithTheOutcomeAndTheDuration() {
    progress.onEvent(event(0, "install", NodeEvent.Kind.STARTED, 0));
    progress.onEvent(download(0, "download-kubelet", 0, 100 * MIB));
    progress.onEvent(download(4_000, "download-kubelet", 100 * MIB, 100 * MIB));
    progress.onEvent(event(4_500, "install", NodeEvent.Kind.COMPLETED, 4_500));
    progress.onEvent(event(4_500, "start", NodeEvent.Kind.STARTED, 0));
    progress.onEvent(event(4_600, "wait-kubelet", NodeEvent.Kind.STARTED, 0));
    progress.onEvent(new NodeEvent(
        T0.plusMillis(9_600),
        "wait-kubelet",
        NodeEvent.Kind.FAILED,
        Duration.ofMillis(5_000),
        Optional.of("kubelet not healthy after 5 s"),
        Map.of("failedAt", "start › wait-kubelet")));
    progress.onEvent(new NodeEvent(
        T0.plusMillis(9_600),
        "start",
        NodeEvent.Kind.ABORTED,
        Duration.ofMillis(5_100),
        Optional.empty(),
        Map.of("failedAt", "start › wait-kubelet", "failedTask", "wait-kubelet")));
    progress.close();

    assertThat(screen())
        .containsExactly(
            "  download-kubelet 100.0 MiB at 25.0 MiB/s          ok 4.00 s",
            "  install                                           ok 4.50 s",
            "  wait-kubelet                                      failed 5.00 s",
            "    kubelet not healthy after 5 s",
            "  start                                             failed 5.10 s");
  }

  @Test
  void aDownloadIsDoneOnceThoughItsLastEventRepeatsAndADownloadTooQuickToTimeHasNoRate() {
    progress.onEvent(download(0, "download-kubelet", 0, 100 * MIB));
    progress.onEvent(download(4_000, "download-kubelet", 100 * MIB, 100 * MIB));
    progress.onEvent(download(4_010, "download-kubelet", 100 * MIB, 100 * MIB));
    progress.onEvent(download(5_000, "download-runc", 10 * MIB, 10 * MIB));

    assertThat(screen())
        .containsExactly(
            "  download-kubelet 100.0 MiB at 25.0 MiB/s          ok 4.00 s",
            "  download-runc 10.0 MiB                            ok 0.00 s");
  }

  @Test
  void aDownloadTaskEndsAsOneLineWithItsSizeRateAndTheTaskDurationVerificationIncluded() {
    progress.onEvent(event(0, "download", NodeEvent.Kind.STARTED, 0));
    progress.onEvent(event(0, "download-kubelet", NodeEvent.Kind.STARTED, 0));
    progress.onEvent(download(0, "download-kubelet", 0, 100 * MIB));
    progress.onEvent(download(4_000, "download-kubelet", 100 * MIB, 100 * MIB));

    assertThat(screen())
        .as("the full bar stays while the download is verified")
        .containsExactly(
            "  … download  4.00 s",
            "  download-kubelet [████████████████████████] 100.0 / 100.0 MiB  25.0 MiB/s");

    progress.onEvent(event(4_300, "download-kubelet", NodeEvent.Kind.COMPLETED, 4_300));
    progress.onEvent(download(4_310, "download-kubelet", 100 * MIB, 100 * MIB));

    assertThat(screen())
        .containsExactly(
            "  download-kubelet 100.0 MiB at 25.0 MiB/s          ok 4.30 s",
            "  … download  4.30 s");
  }

  @Test
  void aBarHasNoRateNorTimeLeftUntilItsBytesCanBeTimed() {
    progress.onEvent(download(0, "download-containerd", MIB, 100 * MIB));

    assertThat(screen())
        .containsExactly("  download-containerd [░░░░░░░░░░░░░░░░░░░░░░░░] 1.0 / 100.0 MiB");
  }

  @Test
  void aLogLineWrittenToStderrWhileTheBlockIsDrawnGoesAboveItAndTheBlockStaysWhole() {
    progress.onEvent(event(0, "start", NodeEvent.Kind.STARTED, 0));
    progress.onEvent(event(0, "wait-kubelet", NodeEvent.Kind.STARTED, 0));
    PrintStream stderr = progress.stderrAbove();

    stderr.print("13:17:17.242 ERROR Node - task=wait-kubelet");
    stderr.print(" status=failed\nand a second");
    stderr.println(" line");

    assertThat(screen())
        .containsExactly(
            "13:17:17.242 ERROR Node - task=wait-kubelet status=failed",
            "and a second line",
            "  … start  0.00 s",
            "  … wait-kubelet  0.00 s");
  }

  @Test
  void aRunningPhasesTimeGoesOnBetweenEventsAndNeverBackwards() {
    progress.onEvent(event(0, "start", NodeEvent.Kind.STARTED, 0));
    progress.onEvent(event(100, "wait-kubelet", NodeEvent.Kind.STARTED, 0));

    progress.tick(T0.plusMillis(5_100));

    assertThat(screen()).containsExactly("  … start  5.10 s", "  … wait-kubelet  5.00 s");

    progress.tick(T0.plusMillis(4_000));

    assertThat(screen()).containsExactly("  … start  5.10 s", "  … wait-kubelet  5.00 s");
  }

  @Test
  void barsAreRedrawnAtMostTenTimesASecond() {
    progress.onEvent(download(0, "download-kubelet", 0, 100 * MIB));
    progress.onEvent(download(1_000, "download-kubelet", 10 * MIB, 100 * MIB));
    progress.onEvent(download(1_050, "download-kubelet", 60 * MIB, 100 * MIB));

    assertThat(screen()).singleElement().asString().contains("10.0 / 100.0 MiB");
  }

  @Test
  void aTaskThatReportsNoBytesPrintsItsNoteAbove() {
    progress.onEvent(event(0, "install", NodeEvent.Kind.STARTED, 0));
    progress.onEvent(new NodeEvent(
        T0,
        "download-cni",
        NodeEvent.Kind.PROGRESS,
        Duration.ZERO,
        Optional.empty(),
        Map.of("warning", "installed unverified")));

    assertThat(screen())
        .containsExactly("  download-cni: warning: installed unverified", "  … install  0.00 s");
  }

  private List<String> screen() {
    return new ScreenEmulator(100).write(bytes.toString(StandardCharsets.UTF_8)).lines();
  }

  private static NodeEvent event(long atMs, String task, NodeEvent.Kind kind, long durationMs) {
    return new NodeEvent(
        T0.plusMillis(atMs), task, kind, Duration.ofMillis(durationMs), Optional.empty(), Map.of());
  }

  private static NodeEvent download(long atMs, String task, long received, long total) {
    return new NodeEvent(
        T0.plusMillis(atMs),
        task,
        NodeEvent.Kind.PROGRESS,
        Duration.ZERO,
        Optional.empty(),
        Map.of("received", Long.toString(received), "total", Long.toString(total)));
  }
}
