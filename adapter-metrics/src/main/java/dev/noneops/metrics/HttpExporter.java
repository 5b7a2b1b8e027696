package dev.noneops.metrics;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * Serves the agent's metrics on {@code http://ADDRESS/metrics} (the Prometheus client's HTTP
 * server), for an operator who asks for it: a stock node opens no port.
 */
public final class HttpExporter implements AutoCloseable {
  /** The port {@code /metrics} is served on when the operator names an address without one. */
  public static final int DEFAULT_PORT = 9847;

  private final HTTPServer server;

  private HttpExporter(HTTPServer server) {
    this.server = server;
  }

  /** Serves {@code metrics} on {@code address} until {@link #close()}. */
  public static HttpExporter start(PrometheusAgentMetrics metrics, InetSocketAddress address)
      throws IOException {
    Objects.requireNonNull(metrics, "metrics");
    Objects.requireNonNull(address, "address");
    HTTPServer server = HTTPServer.builder()
        .inetAddress(address.getAddress())
        .port(address.getPort())
        .registry(metrics.registry())
        .buildAndStart();
    return new HttpExporter(server);
  }

  /** The port it listens on (the one chosen when asked for port 0). */
  public int port() {
    return server.getPort();
  }

  @Override
  public void close() {
    server.close();
  }
}
