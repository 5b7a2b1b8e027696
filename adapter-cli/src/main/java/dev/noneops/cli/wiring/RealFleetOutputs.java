package dev.noneops.cli.wiring;

import dev.noneops.cli.FleetOutputs;
import dev.noneops.cli.JournalSink;
import dev.noneops.hostfs.service.JournalSocket;
import dev.noneops.metrics.HttpExporter;
import dev.noneops.metrics.PrometheusAgentMetrics;
import dev.noneops.metrics.TextfileExporter;
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
 * The fleet's view of a real host: the journal's socket at {@code /run/systemd/journal/socket}
 * (with none, plain lines on stderr), and the Prometheus client's metrics ({@code
 * adapter-metrics}).
 */
public final class RealFleetOutputs implements FleetOutputs {
  private final Optional<Path> journalSocket;

  private RealFleetOutputs(Optional<Path> journalSocket) {
    this.journalSocket = journalSocket;
  }

  /** The journal at its usual socket, and real metrics. */
  public static RealFleetOutputs ofThisHost() {
    return new RealFleetOutputs(Optional.of(JournalSocket.DEFAULT));
  }

  /** Real metrics, and the log on stderr only (a simulated host has no journal). */
  public static RealFleetOutputs withoutJournal() {
    return new RealFleetOutputs(Optional.empty());
  }

  @Override
  public Optional<JournalSink> journal() {
    return journalSocket.flatMap(JournalSocket::at).map(socket -> socket::send);
  }

  @Override
  public DaemonMetrics metrics(
      HostFiles files,
      Supplier<Instant> clock,
      Optional<Path> textfileDirectory,
      Optional<InetSocketAddress> listen,
      Logger log)
      throws IOException {
    PrometheusAgentMetrics metrics = new PrometheusAgentMetrics();
    textfileDirectory.ifPresent(
        dir -> metrics.onChange(new TextfileExporter(files, dir, clock, log)));
    Optional<HttpExporter> http = Optional.empty();
    if (listen.isPresent()) {
      http = Optional.of(HttpExporter.start(metrics, listen.get()));
      log.info(
          "serving the agent's metrics on http://{}/metrics",
          hostAndPort(listen.get(), http.get()));
    }
    Optional<HttpExporter> served = http;
    return new DaemonMetrics() {
      @Override
      public AgentMetrics sink() {
        return metrics;
      }

      @Override
      public void close() {
        served.ifPresent(HttpExporter::close);
      }
    };
  }

  private static String hostAndPort(InetSocketAddress address, HttpExporter http) {
    String host = address.getAddress().getHostAddress();
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + http.port();
  }
}
