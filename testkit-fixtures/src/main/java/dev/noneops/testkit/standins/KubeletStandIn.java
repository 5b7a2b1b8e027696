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
   * began answering: benchmarks measure how late a waiter sees kubelet healthy against it.
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
    warmUp();
    Instant[] serving = new Instant[1];
    HttpServer server = serve(settings, at -> serving[0] = at);
    StandInExit.promptly(() -> server.stop(0));
    out.println("kubelet stand-in: serving http://" + settings.bindAddress() + ":"
        + server.getAddress().getPort() + "/healthz ("
        + (settings.neverHealthy() ? "never healthy" : "healthy") + ")");
    out.println(
        SERVING_SINCE + (serving[0].getEpochSecond() * 1_000_000_000L + serving[0].getNano()));
    out.flush();
  }

  /** Starts the health endpoint; the caller stops the returned server. */
  public static HttpServer serve(Settings settings) throws IOException {
    return serve(settings, serving -> {});
  }

  /**
   * Starts the health endpoint and tells {@code serving} the instant just before it began
   * answering: no client can have had an answer earlier. Call {@link #warmUp} first, or the first
   * answers of a cold JVM come a few hundred milliseconds after that instant.
   */
  public static HttpServer serve(Settings settings, Consumer<Instant> serving) throws IOException {
    // Go's net/http, which kubelet uses, sends without Nagle's delay; the JDK's server only when
    // told
    System.setProperty("sun.net.httpserver.nodelay", "true");
    HttpServer server = HttpServer.create(
        new InetSocketAddress(InetAddress.getByName(settings.bindAddress()), settings.port()), 16);
    server.createContext("/healthz", exchange -> {
      int status = settings.neverHealthy() ? 500 : 200;
      byte[] body = (settings.neverHealthy()
              ? "not ready (stand-in told never to become healthy)"
              : "ok")
          .getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(status, body.length);
      try (OutputStream os = exchange.getResponseBody()) {
        os.write(body);
      }
    });
    serving.accept(Instant.now());
    server.start();
    return server;
  }

  /**
   * Runs one request through a throwaway health endpoint on a free loopback port, so the real
   * endpoint answers its first client as promptly as kubelet's Go server does rather than after a
   * cold JVM's class loading.
   */
  static void warmUp() {
    try {
      HttpServer scratch = serve(new Settings("127.0.0.1", 0, false, false, List.of()));
      try (Socket socket =
          new Socket(InetAddress.getLoopbackAddress(), scratch.getAddress().getPort())) {
        socket
            .getOutputStream()
            .write("GET /healthz HTTP/1.0\r\nHost: stand-in\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII));
        socket.getInputStream().readAllBytes();
      } finally {
        scratch.stop(0);
      }
    } catch (IOException e) {
      System.out.println(
          "kubelet stand-in: warming up its health endpoint failed: " + e.getMessage());
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
  public record Settings(
      String bindAddress, int port, boolean neverHealthy, boolean version, List<String> flags) {

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
