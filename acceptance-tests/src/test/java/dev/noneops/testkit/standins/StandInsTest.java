package dev.noneops.testkit.standins;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StandInsTest {
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @Test
  void kubeletStandInIsHealthyByDefault() throws Exception {
    HttpServer server =
        KubeletStandIn.serve(KubeletStandIn.Settings.parse(List.of("--healthz-port=0"), Map.of()));
    try {
      assertThat(healthz(server.getAddress().getPort())).isEqualTo(200);
    } finally {
      server.stop(0);
    }
  }

  @Test
  void kubeletStandInToldNeverToBecomeHealthyAnswers500ByFlagOrEnvironment() throws Exception {
    for (KubeletStandIn.Settings settings : List.of(
        KubeletStandIn.Settings.parse(
            List.of("--healthz-port", "0", KubeletStandIn.NEVER_HEALTHY_FLAG), Map.of()),
        KubeletStandIn.Settings.parse(
            List.of("--healthz-port=0"), Map.of(KubeletStandIn.NEVER_HEALTHY_ENV, "1")))) {
      HttpServer server = KubeletStandIn.serve(settings);
      try {
        assertThat(healthz(server.getAddress().getPort())).isEqualTo(500);
      } finally {
        server.stop(0);
      }
    }
  }

  @Test
  void kubeletStandInReadsKubeletsOwnHealthzFlags() {
    KubeletStandIn.Settings s = KubeletStandIn.Settings.parse(
        List.of(
            "--config=/var/lib/kubelet/config.yaml",
            "--healthz-bind-address=127.0.0.2",
            "--healthz-port=10999"),
        Map.of());

    assertThat(s.bindAddress()).isEqualTo("127.0.0.2");
    assertThat(s.port()).isEqualTo(10999);
    assertThat(s.neverHealthy()).isFalse();
    assertThat(s.flags()).contains("--config=/var/lib/kubelet/config.yaml");
  }

  @Test
  void theKubeletScriptRunsTheStandInInAJvmAndPrintsItsFlags(@TempDir Path dir) throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    Path script = dir.resolve("kubelet");
    Files.writeString(script, StandInScripts.ofThisJvm().kubelet("1.31.2", false));
    Path log = dir.resolve("out.log");
    Process p = new ProcessBuilder(
            "sh", script.toString(), "--healthz-port=" + port, "--node-ip=10.0.0.5")
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
    try {
      Instant deadline = Instant.now().plusSeconds(20);
      int status = -1;
      while (status != 200 && Instant.now().isBefore(deadline)) {
        status = healthzOrMinusOne(port);
        if (status != 200) {
          Thread.sleep(100);
        }
      }
      assertThat(status).isEqualTo(200);
      assertThat(Files.readString(log)).contains("kubelet stand-in: flag --node-ip=10.0.0.5");
    } finally {
      p.destroy();
      p.waitFor();
    }
  }

  @Test
  void coreDnsStandInAnswersAQueryWithNxdomainEchoingTheQuestion() throws Exception {
    try (DatagramSocket server =
            new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        DatagramSocket client = new DatagramSocket()) {
      Thread serving = new Thread(() -> {
        try {
          CoreDnsStandIn.serve(server);
        } catch (java.io.IOException ignored) {
          // the socket was closed at the end of the test
        }
      });
      serving.setDaemon(true);
      serving.start();
      byte[] query = query(0x1234, "kubernetes.default.svc.cluster.local");
      client.setSoTimeout(2000);
      client.send(new DatagramPacket(query, query.length, server.getLocalSocketAddress()));
      DatagramPacket reply = new DatagramPacket(new byte[512], 512);
      client.receive(reply);

      byte[] r = java.util.Arrays.copyOf(reply.getData(), reply.getLength());
      assertThat(r[0] & 0xff).isEqualTo(0x12);
      assertThat(r[1] & 0xff).isEqualTo(0x34);
      assertThat(r[2] & 0x80).as("QR").isEqualTo(0x80);
      assertThat(r[3] & 0x0f).as("RCODE").isEqualTo(3);
      assertThat(r).hasSize(query.length);
    }
  }

  @Test
  void coreDnsStandInIgnoresGarbage() {
    assertThat(CoreDnsStandIn.answer(new byte[] {1, 2, 3})).isEmpty();
  }

  private static byte[] query(int id, String name) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(new byte[] {(byte) (id >> 8), (byte) id, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0});
    for (String label : name.split("\\.")) {
      out.write(label.length());
      out.writeBytes(label.getBytes(StandardCharsets.US_ASCII));
    }
    out.writeBytes(new byte[] {0, 0, 1, 0, 1});
    return out.toByteArray();
  }

  private int healthz(int port) throws Exception {
    return http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/healthz"))
                .build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  private int healthzOrMinusOne(int port) {
    try {
      return healthz(port);
    } catch (Exception e) {
      return -1;
    }
  }
}
