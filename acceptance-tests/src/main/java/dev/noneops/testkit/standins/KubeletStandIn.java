package dev.noneops.testkit.standins;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * A stand-in for kubelet in system tests and the demo: it prints every flag it was started with
 * (one per line, so the unit's journal shows what the node configured) and serves kubelet's
 * health endpoint, {@code GET /healthz} on {@code 127.0.0.1:10248} (or {@code --healthz-port} /
 * {@code --healthz-bind-address}), until it is stopped.
 *
 * <p>With {@value #NEVER_HEALTHY_FLAG} on the command line, or {@value #NEVER_HEALTHY_ENV}{@code =1}
 * in the environment, it runs but its health endpoint answers 500 forever: a kubelet that never
 * becomes ready, which is what makes an upgrade roll back.
 */
public final class KubeletStandIn {
  /** Makes the stand-in never healthy. */
  public static final String NEVER_HEALTHY_FLAG = "--standin-never-healthy";

  /** Makes the stand-in never healthy when set to {@code 1}. */
  public static final String NEVER_HEALTHY_ENV = "NONEOPS_KUBELET_STANDIN_NEVER_HEALTHY";

  public static final int DEFAULT_HEALTHZ_PORT = 10248;

  /**
   * Starts the journal line giving, in nanoseconds since the epoch, the instant the health endpoint
   * first answered 200: benchmarks measure how late a waiter sees kubelet healthy against it.
   */
  public static final String SERVING_SINCE = "kubelet stand-in: healthz served since epoch ns ";

  private KubeletStandIn() {}

  public static void main(String[] args) throws IOException {
    Settings settings = Settings.parse(List.of(args), System.getenv());
    PrintStream out = System.out;
    out.println("kubelet stand-in: started with " + args.length + " flag(s)");
    for (String arg : args) {
      out.println("kubelet stand-in: flag " + arg);
    }
    if (settings.version()) {
      out.println("Kubernetes v0.0.0-standin");
      return;
    }
    HttpServer server = serve(settings, firstHealthy -> {
      out.println(SERVING_SINCE + (firstHealthy.getEpochSecond() * 1_000_000_000L + firstHealthy.getNano()));
      out.flush();
    });
    StandInExit.promptly(() -> server.stop(0));
    out.println("kubelet stand-in: serving http://" + settings.bindAddress() + ":" + server.getAddress().getPort() + "/healthz ("
        + (settings.neverHealthy() ? "never healthy" : "healthy") + ")");
    out.flush();
    askItself(settings.bindAddress(), server.getAddress().getPort());
  }

  /** Starts the health endpoint; the caller stops the returned server. */
  public static HttpServer serve(Settings settings) throws IOException {
    return serve(settings, firstHealthy -> { });
  }

  /**
   * Starts the health endpoint and tells {@code firstHealthy} when it sent its first 200: no client
   * can have seen it healthy earlier.
   */
  public static HttpServer serve(Settings settings, Consumer<Instant> firstHealthy) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getByName(settings.bindAddress()), settings.port()), 16);
    AtomicBoolean answeredHealthy = new AtomicBoolean();
    server.createContext("/healthz", exchange -> {
      int status = settings.neverHealthy() ? 500 : 200;
      byte[] body = (settings.neverHealthy() ? "not ready (stand-in told never to become healthy)" : "ok")
          .getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(status, body.length);
      try (OutputStream os = exchange.getResponseBody()) {
        os.write(body);
      }
      if (status == 200 && answeredHealthy.compareAndSet(false, true)) {
        firstHealthy.accept(Instant.now());
      }
    });
    server.start();
    return server;
  }

  /**
   * One GET of its own health endpoint, so the endpoint's first answer (in a cold JVM the slowest,
   * by a few hundred milliseconds) does not wait for a client to ask.
   */
  private static void askItself(String address, int port) {
    try (Socket socket = new Socket(InetAddress.getByName(address), port)) {
      socket.getOutputStream().write("GET /healthz HTTP/1.0\r\nHost: stand-in\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      socket.getInputStream().readAllBytes();
    } catch (IOException e) {
      System.out.println("kubelet stand-in: asking its own healthz failed: " + e.getMessage());
    }
  }

  /**
   * What the stand-in was told.
   *
   * @param bindAddress where {@code /healthz} listens
   * @param port its port ({@code 0} picks a free one, for tests)
   * @param neverHealthy answer 500 forever
   * @param version print a version and exit, as {@code kubelet --version} does
   * @param flags every argument, verbatim
   */
  public record Settings(String bindAddress, int port, boolean neverHealthy, boolean version, List<String> flags) {

    public static Settings parse(List<String> args, Map<String, String> env) {
      String bind = "127.0.0.1";
      int port = DEFAULT_HEALTHZ_PORT;
      boolean never = "1".equals(env.get(NEVER_HEALTHY_ENV));
      boolean version = false;
      List<String> flags = new ArrayList<>(args);
      for (int i = 0; i < args.size(); i++) {
        String arg = args.get(i);
        String value = i + 1 < args.size() ? args.get(i + 1) : "";
        if (arg.equals(NEVER_HEALTHY_FLAG)) {
          never = true;
        } else if (arg.equals("--version")) {
          version = true;
        } else if (arg.startsWith("--healthz-port=")) {
          port = Integer.parseInt(arg.substring("--healthz-port=".length()));
        } else if (arg.equals("--healthz-port")) {
          port = Integer.parseInt(value);
        } else if (arg.startsWith("--healthz-bind-address=")) {
          bind = arg.substring("--healthz-bind-address=".length());
        } else if (arg.equals("--healthz-bind-address")) {
          bind = value;
        }
      }
      return new Settings(bind, port, never, version, List.copyOf(flags));
    }
  }
}
