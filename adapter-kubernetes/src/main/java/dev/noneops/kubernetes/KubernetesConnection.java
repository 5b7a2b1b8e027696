package dev.noneops.kubernetes;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * How to reach the API server: its URL, the credential the node presents (a bearer token, or a
 * client certificate and its key in PEM; {@code ""} for none), the cluster's CA in PEM ({@code ""}
 * to trust the JVM's CAs), the bound of one request, how often a watch re-reads its Machine
 * although nothing was lost, and how long a lost watch waits before it is resumed (doubling up to
 * {@link #MAX_RETRY_DELAY} while the server stays unreachable).
 */
public record KubernetesConnection(
    URI apiServer,
    String bearerToken,
    String clientCertPem,
    String clientKeyPem,
    String caCertPem,
    Duration requestTimeout,
    Duration resyncPeriod,
    Duration watchRetryDelay) {

  /** The longest wait between two attempts to resume a lost watch. */
  public static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(30);

  public KubernetesConnection {
    Objects.requireNonNull(apiServer, "apiServer");
    if (!"https".equals(apiServer.getScheme()) && !"http".equals(apiServer.getScheme())) {
      throw new IllegalArgumentException("the API server's URL is http(s): " + apiServer);
    }
    Objects.requireNonNull(bearerToken, "bearerToken");
    Objects.requireNonNull(clientCertPem, "clientCertPem");
    Objects.requireNonNull(clientKeyPem, "clientKeyPem");
    if (clientCertPem.isEmpty() != clientKeyPem.isEmpty()) {
      throw new IllegalArgumentException(
          "a client certificate needs its key, and a key its" + " certificate");
    }
    Objects.requireNonNull(caCertPem, "caCertPem");
    requirePositive(requestTimeout, "requestTimeout");
    requirePositive(resyncPeriod, "resyncPeriod");
    requirePositive(watchRetryDelay, "watchRetryDelay");
  }

  /**
   * {@code apiServer} with no credential and the JVM's CAs, 10 s per request, a resync every 10
   * minutes, a lost watch resumed after 1 s.
   */
  public static KubernetesConnection to(URI apiServer) {
    return new KubernetesConnection(
        apiServer,
        "",
        "",
        "",
        "",
        Duration.ofSeconds(10),
        Duration.ofMinutes(10),
        Duration.ofSeconds(1));
  }

  public KubernetesConnection withBearerToken(String token) {
    return new KubernetesConnection(
        apiServer,
        token,
        clientCertPem,
        clientKeyPem,
        caCertPem,
        requestTimeout,
        resyncPeriod,
        watchRetryDelay);
  }

  /** This connection presenting the client certificate {@code certPem} with its key {@code keyPem}. */
  public KubernetesConnection withClientCertificate(String certPem, String keyPem) {
    return new KubernetesConnection(
        apiServer,
        bearerToken,
        certPem,
        keyPem,
        caCertPem,
        requestTimeout,
        resyncPeriod,
        watchRetryDelay);
  }

  public KubernetesConnection withCaCertPem(String pem) {
    return new KubernetesConnection(
        apiServer,
        bearerToken,
        clientCertPem,
        clientKeyPem,
        pem,
        requestTimeout,
        resyncPeriod,
        watchRetryDelay);
  }

  public KubernetesConnection withResyncPeriod(Duration period) {
    return new KubernetesConnection(
        apiServer,
        bearerToken,
        clientCertPem,
        clientKeyPem,
        caCertPem,
        requestTimeout,
        period,
        watchRetryDelay);
  }

  public KubernetesConnection withWatchRetryDelay(Duration delay) {
    return new KubernetesConnection(
        apiServer,
        bearerToken,
        clientCertPem,
        clientKeyPem,
        caCertPem,
        requestTimeout,
        resyncPeriod,
        delay);
  }

  public KubernetesConnection withRequestTimeout(Duration timeout) {
    return new KubernetesConnection(
        apiServer,
        bearerToken,
        clientCertPem,
        clientKeyPem,
        caCertPem,
        timeout,
        resyncPeriod,
        watchRetryDelay);
  }

  private static void requirePositive(Duration d, String what) {
    Objects.requireNonNull(d, what);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(what + " must be positive: " + d);
    }
  }

  @Override
  public String toString() {
    // Tokens and keys are credentials: never in a log line.
    String credential = !bearerToken.isEmpty()
        ? ", bearer token"
        : !clientCertPem.isEmpty() ? ", client certificate" : "";
    return "KubernetesConnection[" + apiServer + credential + ", requestTimeout=" + requestTimeout
        + ", resyncPeriod=" + resyncPeriod + ", watchRetryDelay=" + watchRetryDelay + "]";
  }
}
