package dev.noneops.hostfs.health;

import dev.noneops.ports.health.HealthProbes;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Health checks over the network: an HTTP GET that must answer 200, and a DNS query over UDP
 * that any response counts for. Each is bounded by its timeout and never throws.
 */
public final class NetworkHealthProbes implements HealthProbes {

  private final HttpClient client;
  private final SecureRandom random = new SecureRandom();

  public NetworkHealthProbes(HttpClient client) {
    this.client = Objects.requireNonNull(client, "client");
  }

  /** Probes with their own HTTP client, which follows no redirects. */
  public static NetworkHealthProbes create() {
    return new NetworkHealthProbes(HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build());
  }

  @Override
  public boolean httpOk(URI url, Duration timeout) {
    CompletableFuture<HttpResponse<Void>> response = null;
    try {
      HttpRequest request = HttpRequest.newBuilder(url).GET().timeout(timeout).build();
      response = client.sendAsync(request, HttpResponse.BodyHandlers.discarding());
      return response.get(timeout.toNanos(), TimeUnit.NANOSECONDS).statusCode() == 200;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (ExecutionException | TimeoutException | RuntimeException e) {
      return false;
    } finally {
      if (response != null) {
        response.cancel(true);
      }
    }
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
