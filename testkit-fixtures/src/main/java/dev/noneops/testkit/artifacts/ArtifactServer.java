package dev.noneops.testkit.artifacts;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A local HTTP artifact server on {@code 127.0.0.1}: serves the regular files below a document
 * root (an {@link ArtifactRepository}) for {@code GET} and {@code HEAD}, 404 for anything else,
 * never a directory listing, never a path outside the root. Every request is recorded, so a test
 * can prove that a verified artifact already present was not downloaded again. {@link
 * #serve(Path, long)} caps each response's rate, so that a download lasts long enough to be
 * watched (an operator trying the progress bars, a test acting mid-download).
 */
public final class ArtifactServer implements AutoCloseable {
  /** No cap on a response's rate. */
  public static final long UNLIMITED = Long.MAX_VALUE;

  private static final int CHUNK = 16 * 1024;

  private final Path root;
  private final HttpServer server;
  private final ExecutorService executor;
  private final List<String> requests = new CopyOnWriteArrayList<>();
  private final long bytesPerSecond;
  private volatile String requiredQuery;

  private ArtifactServer(
      Path root, HttpServer server, ExecutorService executor, long bytesPerSecond) {
    this.root = root;
    this.server = server;
    this.executor = executor;
    this.bytesPerSecond = bytesPerSecond;
  }

  /** Serves {@code root} on a free port of {@code 127.0.0.1}, as fast as it can. */
  public static ArtifactServer serve(Path root) throws IOException {
    return serve(root, UNLIMITED);
  }

  /**
   * Serves {@code root} on a free port of {@code 127.0.0.1}, each response's body sent at no more
   * than {@code bytesPerSecond} ({@link #UNLIMITED} for no cap).
   *
   * @throws IllegalArgumentException when {@code bytesPerSecond} is not positive
   */
  public static ArtifactServer serve(Path root, long bytesPerSecond) throws IOException {
    if (bytesPerSecond <= 0) {
      throw new IllegalArgumentException(
          "bytesPerSecond must be positive (UNLIMITED for no cap): " + bytesPerSecond);
    }
    Path absolute = root.toAbsolutePath().normalize();
    if (!Files.isDirectory(absolute)) {
      throw new IOException("artifact root is not a directory: " + absolute);
    }
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 32);
    ExecutorService executor = Executors.newFixedThreadPool(4, r -> {
      Thread t = new Thread(r, "artifact-server");
      t.setDaemon(true);
      return t;
    });
    ArtifactServer artifacts = new ArtifactServer(absolute, server, executor, bytesPerSecond);
    server.createContext("/", artifacts::handle);
    server.setExecutor(executor);
    server.start();
    return artifacts;
  }

  /** {@code http://127.0.0.1:<port>}. */
  public URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** The URL of {@code path} below the root, e.g. {@code containerd} for a base URL. */
  public URI uri(String path) {
    return uri().resolve("/" + path);
  }

  /**
   * From now on answers 403 to a request whose query is not exactly {@code query} (without the
   * {@code ?}), as a mirror does that takes one token in the query of every file's URL.
   */
  public ArtifactServer requiringQuery(String query) {
    this.requiredQuery = Objects.requireNonNull(query, "query");
    return this;
  }

  /** Every request so far, as {@code "<METHOD> <path> <status>"}, in order. */
  public List<String> requests() {
    return List.copyOf(requests);
  }

  public Path root() {
    return root;
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  /**
   * Answers one request. It is recorded before the answer is sent, so a client that has its answer
   * finds the request in {@link #requests()}.
   */
  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String method = exchange.getRequestMethod();
      String rawPath = exchange.getRequestURI().getPath();
      Path file = resolve(rawPath);
      String required = requiredQuery;
      if (!method.equals("GET") && !method.equals("HEAD")) {
        requests.add(method + " " + rawPath + " 405");
        exchange.sendResponseHeaders(405, -1);
      } else if (required != null && !required.equals(exchange.getRequestURI().getRawQuery())) {
        requests.add(method + " " + rawPath + " 403");
        exchange.sendResponseHeaders(403, -1);
      } else if (file == null || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
        requests.add(method + " " + rawPath + " 404");
        exchange.sendResponseHeaders(404, -1);
      } else {
        long size = Files.size(file);
        exchange.getResponseHeaders().set("Content-Type", "application/octet-stream");
        requests.add(method + " " + rawPath + " 200");
        if (method.equals("HEAD")) {
          exchange.getResponseHeaders().set("Content-Length", Long.toString(size));
          exchange.sendResponseHeaders(200, -1);
        } else {
          exchange.sendResponseHeaders(200, size);
          try (InputStream in = Files.newInputStream(file);
              OutputStream out = exchange.getResponseBody()) {
            send(in, out);
          }
        }
      }
    }
  }

  /** Copies {@code in} to {@code out}, pausing so that it never runs ahead of the rate. */
  private void send(InputStream in, OutputStream out) throws IOException {
    if (bytesPerSecond == UNLIMITED) {
      in.transferTo(out);
      return;
    }
    byte[] buffer = new byte[CHUNK];
    long sent = 0;
    long start = System.nanoTime();
    for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
      out.write(buffer, 0, n);
      sent += n;
      long due = start + sent * 1_000_000_000L / bytesPerSecond;
      long ahead = due - System.nanoTime();
      if (ahead > 0) {
        try {
          TimeUnit.NANOSECONDS.sleep(ahead);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException(
              "interrupted while sending at " + bytesPerSecond + " bytes/s");
        }
      }
    }
  }

  private Path resolve(String rawPath) {
    if (rawPath == null
        || !rawPath.startsWith("/")
        || rawPath.contains("\\")
        || rawPath.indexOf('\0') >= 0) {
      return null;
    }
    Path candidate = root.resolve(rawPath.substring(1)).normalize();
    return candidate.startsWith(root) && !candidate.equals(root)
        ? Objects.requireNonNull(candidate)
        : null;
  }
}
