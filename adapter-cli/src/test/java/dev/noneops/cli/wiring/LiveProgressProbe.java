package dev.noneops.cli.wiring;

import dev.noneops.cli.output.ProgressOutput;
import dev.noneops.ports.events.NodeEvent;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * A process for {@link StderrTerminalTest}: reports a download and a phase on its real stderr as
 * the CLI does, so the test can run it on a pseudo-terminal and through a pipe.
 */
final class LiveProgressProbe {
  private LiveProgressProbe() {}

  public static void main(String[] args) {
    PrintWriter err =
        new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
    Instant t0 = Instant.parse("2026-01-01T10:00:00Z");
    try (ProgressOutput progress = new ProgressOutput(err, false, new StderrTerminal())) {
      progress.onEvent(event(t0, "install", NodeEvent.Kind.STARTED, Duration.ZERO, Map.of()));
      progress.onEvent(
          event(t0, "download-kubelet", NodeEvent.Kind.PROGRESS, Duration.ZERO, bytes(0)));
      progress.onEvent(event(
          t0.plusSeconds(2),
          "download-kubelet",
          NodeEvent.Kind.PROGRESS,
          Duration.ZERO,
          bytes(50)));
      progress.onEvent(event(
          t0.plusSeconds(4),
          "download-kubelet",
          NodeEvent.Kind.PROGRESS,
          Duration.ZERO,
          bytes(100)));
      progress.onEvent(event(
          t0.plusSeconds(5), "install", NodeEvent.Kind.COMPLETED, Duration.ofSeconds(5), Map.of()));
    }
  }

  private static Map<String, String> bytes(long mib) {
    return Map.of("received", Long.toString(mib << 20), "total", Long.toString(100L << 20));
  }

  private static NodeEvent event(
      Instant at, String task, NodeEvent.Kind kind, Duration took, Map<String, String> details) {
    return new NodeEvent(at, task, kind, took, Optional.empty(), details);
  }
}
