package dev.noneops.hostfs.health;

import dev.noneops.ports.health.HealthProbes;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Health checks over the network: an HTTP GET that must answer 200, and a DNS query over UDP
 * that any response counts for. Neither throws. The DNS query is bounded by its timeout; the HTTP
 * GET's connecting and its reading are each bounded by it (a loopback connect takes microseconds).
 *
 * <p>The HTTP check is a blocking {@link HttpURLConnection} without proxy or redirects, whose
 * connection is closed after each check ({@code disconnect}): a readiness wait probes a local
 * endpoint many times while the service is still starting, and a refused connection costs it well
 * under a millisecond, several times less than an asynchronous {@code java.net.http.HttpClient}
 * exchange, so readiness is seen sooner.
 */
public final class NetworkHealthProbes implements HealthProbes {

  private final SecureRandom random = new SecureRandom();

  /** Probes as described above. */
  public static NetworkHealthProbes create() {
    return new NetworkHealthProbes();
  }

  private NetworkHealthProbes() {}

  @Override
  public boolean httpOk(URI url, Duration timeout) {
    HttpURLConnection connection = null;
    try {
      long deadline = System.nanoTime() + timeout.toNanos();
      connection = (HttpURLConnection) url.toURL().openConnection(Proxy.NO_PROXY);
      connection.setInstanceFollowRedirects(false);
      connection.setUseCaches(false);
      connection.setConnectTimeout(millisUntil(deadline));
      connection.setReadTimeout(millisUntil(deadline));
      return connection.getResponseCode() == 200;
    } catch (IOException | RuntimeException e) {
      return false;
    } finally {
      if (connection != null) {
        connection.disconnect();
      }
    }
  }

  /** The time left until {@code deadline}, at least one millisecond (zero would mean "no timeout"). */
  private static int millisUntil(long deadline) {
    long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, left));
  }

  @Override
  public boolean dnsAnswers(String address, int port, String name, Duration timeout) {
    try {
      int id = random.nextInt(0x10000);
      byte[] query = DnsQuery.build(id, name);
      InetAddress server = InetAddress.getByName(address);
      long deadline = System.nanoTime() + timeout.toNanos();
      try (DatagramSocket socket = new DatagramSocket()) {
        socket.send(new DatagramPacket(query, query.length, new InetSocketAddress(server, port)));
        byte[] buffer = new byte[4096];
        while (true) {
          long leftMillis = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
          if (leftMillis <= 0) {
            return false;
          }
          socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, leftMillis));
          DatagramPacket reply = new DatagramPacket(buffer, buffer.length);
          socket.receive(reply);
          if (DnsQuery.isResponseTo(id, reply.getData(), reply.getLength())) {
            return true;
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }
}
