package dev.noneops.hostfs.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.hostfs.testing.ArtifactServer;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class NetworkHealthProbesTest {

  private final NetworkHealthProbes probes = NetworkHealthProbes.create();

  @Test
  void httpOkIsTrueOnlyFor200() throws Exception {
    try (ArtifactServer server = new ArtifactServer()) {
      server.serving("/healthz", "ok".getBytes());
      server.on("/failing", (ex, n) -> ArtifactServer.send(ex, 500, new byte[0]));

      assertThat(probes.httpOk(server.url("/healthz"), Duration.ofSeconds(5))).isTrue();
      assertThat(probes.httpOk(server.url("/failing"), Duration.ofSeconds(5))).isFalse();
    }
  }

  @Test
  void aRedirectIsNotFollowedEvenToAHealthyEndpoint() throws Exception {
    try (ArtifactServer server = new ArtifactServer()) {
      server.serving("/healthz", "ok".getBytes());
      server.on("/moved", (ex, n) -> {
        ex.getResponseHeaders().add("Location", server.url("/healthz").toString());
        ArtifactServer.send(ex, 302, new byte[0]);
      });

      assertThat(probes.httpOk(server.url("/moved"), Duration.ofSeconds(5))).isFalse();
    }
  }

  @Test
  void httpOkIsFalseWhenNothingListensOrTheAnswerIsLate() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    CountDownLatch release = new CountDownLatch(1);
    try (ArtifactServer server = new ArtifactServer()) {
      server.on("/slow", (ex, n) -> {
        try {
          release.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        ArtifactServer.send(ex, 200, new byte[0]);
      });
      long start = System.nanoTime();

      assertThat(probes.httpOk(
              URI.create("http://127.0.0.1:" + closedPort + "/healthz"), Duration.ofSeconds(2)))
          .isFalse();
      assertThat(probes.httpOk(server.url("/slow"), Duration.ofMillis(300))).isFalse();
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    } finally {
      release.countDown();
    }
  }

  @Test
  void dnsAnswersWhenAServerRepliesWithTheQueryId() throws Exception {
    try (DatagramSocket server = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
      Thread responder = new Thread(() -> {
        try {
          DatagramPacket query = new DatagramPacket(new byte[512], 512);
          server.receive(query);
          byte[] wrongId = java.util.Arrays.copyOf(query.getData(), query.getLength());
          wrongId[0] ^= 0x55;
          wrongId[2] |= (byte) 0x80;
          server.send(new DatagramPacket(wrongId, wrongId.length, query.getSocketAddress()));
          byte[] nxdomain = java.util.Arrays.copyOf(query.getData(), query.getLength());
          nxdomain[2] |= (byte) 0x80;
          nxdomain[3] = 0x03; // RCODE NXDOMAIN
          server.send(new DatagramPacket(nxdomain, nxdomain.length, query.getSocketAddress()));
        } catch (Exception e) {
          // the probe's assertion reports the failure
        }
      });
      responder.start();

      assertThat(probes.dnsAnswers(
              "127.0.0.1",
              server.getLocalPort(),
              "kubernetes.default.svc.cluster.local",
              Duration.ofSeconds(5)))
          .isTrue();
      responder.join(5000);
    }
  }

  @Test
  void dnsIsFalseWhenNoAnswerComesInTime() throws Exception {
    try (DatagramSocket silent = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
      long start = System.nanoTime();

      assertThat(probes.dnsAnswers(
              "127.0.0.1", silent.getLocalPort(), "example.com", Duration.ofMillis(300)))
          .isFalse();
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
    }
  }

  @Test
  void dnsIsFalseForANameThatCannotBeAsked() {
    assertThat(probes.dnsAnswers("127.0.0.1", 53, "bad..name", Duration.ofMillis(100)))
        .isFalse();
  }
}
