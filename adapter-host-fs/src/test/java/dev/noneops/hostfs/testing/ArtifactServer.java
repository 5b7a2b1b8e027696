package dev.noneops.hostfs.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/** A real HTTP server on 127.0.0.1 serving scripted responses, counting the requests per path. */
public final class ArtifactServer implements AutoCloseable {

  /** Answers one request; {@code attempt} counts from 1 per path. */
  @FunctionalInterface
  public interface Responder {
    void respond(HttpExchange exchange, int attempt) throws IOException;
  }

  private final HttpServer server;
  private final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();

  public ArtifactServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "artifact-server");
      t.setDaemon(true);
      return t;
    }));
    server.start();
  }

  /** Serves {@code path} with {@code responder}. */
  public ArtifactServer on(String path, Responder responder) {
    hits.put(path, new AtomicInteger());
    server.createContext(path, exchange -> {
      try (exchange) {
        responder.respond(exchange, hits.get(path).incrementAndGet());
      }
    });
    return this;
  }

  /** Serves {@code body} with a Content-Length. */
  public ArtifactServer serving(String path, byte[] body) {
    return on(path, (ex, attempt) -> send(ex, 200, body));
  }

  public URI url(String path) {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
  }

  public int hits(String path) {
    return hits.get(path).get();
  }

  public static void send(HttpExchange exchange, int status, byte[] body) throws IOException {
    exchange.getRequestBody().readAllBytes();
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
