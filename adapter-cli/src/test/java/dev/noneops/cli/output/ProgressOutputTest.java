package dev.noneops.cli.output;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.ports.events.NodeEvent;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Where the node's events go when stderr is not a terminal, and when the terminal is asked for. */
class ProgressOutputTest {
  private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");

  private final StringWriter err = new StringWriter();

  @Test
  void withoutATerminalThePhasesAndDownloadsArePlainLinesAsBefore() {
    ProgressOutput progress =
        new ProgressOutput(new PrintWriter(err), false, ProgressTerminal.NONE);

    events().forEach(progress::onEvent);
    progress.close();

    assertThat(err.toString().lines())
        .containsExactly(
            "  ... install",
            "  ... download-kubelet: 0.0 MiB / 100.0 MiB",
            "  ... download-kubelet: 100.0 MiB / 100.0 MiB at 25.0 MiB/s",
            "  ok  install (4.50 s)");
  }

  /**
   * Without a terminal stderr is a log (the agent's daemon writes to the journal): a failure's
   * signed URL keeps its query keys and loses their values, in plain and in JSON lines.
   */
  @Test
  void withoutATerminalAFailuresSignedUrlIsRedacted() {
    String failure = "artifact kubelet from https://dl.example.com/kubelet"
        + "?X-Amz-Credential=AKIDEXAMPLE&X-Amz-Signature=0a1b2c3d: HTTP 403";
    NodeEvent failed = new NodeEvent(
        T0,
        "download-kubelet",
        NodeEvent.Kind.FAILED,
        Duration.ZERO,
        Optional.of(failure),
        Map.of());
    StringWriter json = new StringWriter();
    ProgressOutput plain = new ProgressOutput(new PrintWriter(err), false, ProgressTerminal.NONE);
    ProgressOutput ndjson = new ProgressOutput(new PrintWriter(json), true, ProgressTerminal.NONE);

    plain.onEvent(failed);
    ndjson.onEvent(failed);
    plain.close();
    ndjson.close();

    assertThat(err.toString() + json)
        .contains("?X-Amz-Credential=REDACTED&X-Amz-Signature=REDACTED: HTTP 403")
        .doesNotContain("AKIDEXAMPLE", "0a1b2c3d");
  }

  @Test
  void aDownloadsFirstLineHasNoRateForTheBytesOfItsFirstMillisecond() {
    ProgressOutput progress =
        new ProgressOutput(new PrintWriter(err), false, ProgressTerminal.NONE);

    progress.onEvent(event(0, "download-containerd", NodeEvent.Kind.PROGRESS, bytes(1)));
    progress.onEvent(event(1_000, "download-containerd", NodeEvent.Kind.PROGRESS, bytes(3)));

    assertThat(err.toString().lines())
        .containsExactly(
            "  ... download-containerd: 1.0 MiB / 100.0 MiB",
            "  ... download-containerd: 3.0 MiB / 100.0 MiB at 3.0 MiB/s");
  }

  @Test
  void withJsonEveryEventIsOneJsonLineAndNoTerminalIsOpened() {
    AtomicInteger opened = new AtomicInteger();
    ProgressOutput progress = new ProgressOutput(new PrintWriter(err), true, () -> {
      opened.incrementAndGet();
      return Optional.empty();
    });

    events().forEach(progress::onEvent);

    assertThat(opened).hasValue(0);
    assertThat(err.toString().lines())
        .hasSize(4)
        .allMatch(line -> line.startsWith("{\"at\":\"2026-01-01T10:00:0"))
        .last()
        .asString()
        .isEqualTo(
            "{\"at\":\"2026-01-01T10:00:04.500Z\",\"durationMs\":4500,\"kind\":\"COMPLETED\","
                + "\"task\":\"install\"}");
  }

  @Test
  void theTerminalIsOpenedAtTheFirstEventOnlyAndClosedWithTheOutput() {
    List<NodeEvent> drawn = new ArrayList<>();
    AtomicInteger opened = new AtomicInteger();
    AtomicInteger closed = new AtomicInteger();
    LiveProgress live = new LiveProgress() {
      @Override
      public void onEvent(NodeEvent event) {
        drawn.add(event);
      }

      @Override
      public void close() {
        closed.incrementAndGet();
      }
    };
    ProgressOutput progress = new ProgressOutput(new PrintWriter(err), false, () -> {
      opened.incrementAndGet();
      return Optional.of(live);
    });
    assertThat(opened).as("a command that reports nothing opens no terminal").hasValue(0);

    events().forEach(progress::onEvent);
    progress.close();

    assertThat(opened).hasValue(1);
    assertThat(drawn).containsExactlyElementsOf(events());
    assertThat(closed).hasValue(1);
    assertThat(err.toString()).isEmpty();
  }

  private static List<NodeEvent> events() {
    return List.of(
        event(0, "install", NodeEvent.Kind.STARTED, Map.of()),
        event(0, "download-kubelet", NodeEvent.Kind.PROGRESS, bytes(0)),
        event(4_000, "download-kubelet", NodeEvent.Kind.PROGRESS, bytes(100)),
        new NodeEvent(
            T0.plusMillis(4_500),
            "install",
            NodeEvent.Kind.COMPLETED,
            Duration.ofMillis(4_500),
            Optional.empty(),
            Map.of()));
  }

  private static Map<String, String> bytes(long mib) {
    return Map.of("received", Long.toString(mib * 1048576), "total", Long.toString(100 * 1048576));
  }

  private static NodeEvent event(
      long atMs, String task, NodeEvent.Kind kind, Map<String, String> details) {
    return new NodeEvent(T0.plusMillis(atMs), task, kind, Duration.ZERO, Optional.empty(), details);
  }
}
