package dev.noneops.cli;

import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.metrics.AgentMetrics;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;

/**
 * What the agent's daemon shows a fleet, as the composition root makes it: the journal's native
 * socket for its log, and its metrics (Prometheus' format, for node_exporter's textfile collector
 * and an opt-in {@code /metrics}).
 */
public interface FleetOutputs {
  /** No journal socket (plain lines on stderr) and metrics that go nowhere. */
  FleetOutputs NONE = new FleetOutputs() {
    @Override
    public Optional<JournalSink> journal() {
      return Optional.empty();
    }

    @Override
    public DaemonMetrics metrics(
        HostFiles files,
        Supplier<Instant> clock,
        Optional<Path> textfileDirectory,
        Optional<InetSocketAddress> listen,
        Logger log) {
      return DaemonMetrics.NONE;
    }
  };

  /** The journal's native socket, when this host has one. */
  Optional<JournalSink> journal();

  /**
   * The daemon's metrics: written into {@code textfileDirectory} (node_exporter's textfile
   * collector's) when it is given, and served on {@code http://listen/metrics} when that is.
   *
   * @throws IOException when {@code listen} cannot be listened on
   */
  DaemonMetrics metrics(
      HostFiles files,
      Supplier<Instant> clock,
      Optional<Path> textfileDirectory,
      Optional<InetSocketAddress> listen,
      Logger log)
      throws IOException;

  /** The daemon's metrics while it runs; closing stops serving them. */
  interface DaemonMetrics extends AutoCloseable {
    /** Metrics that go nowhere. */
    DaemonMetrics NONE = new DaemonMetrics() {
      @Override
      public AgentMetrics sink() {
        return AgentMetrics.NONE;
      }

      @Override
      public void close() {}
    };

    /** Where the daemon reports. */
    AgentMetrics sink();

    @Override
    void close();
  }
}
