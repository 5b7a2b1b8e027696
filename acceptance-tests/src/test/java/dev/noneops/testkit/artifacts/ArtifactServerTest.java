package dev.noneops.testkit.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.DownloadArtifact;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArtifactServerTest {
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void servesAnArtifactAndItsChecksumAtTheUrlCoreComputesFromABaseUrlOverride(@TempDir Path dir)
      throws Exception {
    ArtifactRepository repo = new ArtifactRepository(dir);
    byte[] content = "runc binary".getBytes(StandardCharsets.UTF_8);
    String sha = repo.put(DownloadArtifact.RUNC, "1.1.5", "amd64", "", content);

    try (ArtifactServer server = ArtifactServer.serve(repo.root())) {
      AgentConfig.Downloads downloads = ArtifactRepository.downloads(server.uri());
      String url = DownloadArtifact.RUNC.url(downloads.runc(), "1.1.5", "amd64", "");

      assertThat(url).isEqualTo(server.uri() + "/runc/v1.1.5/runc.amd64");
      HttpResponse<byte[]> got = get(url);
      assertThat(got.statusCode()).isEqualTo(200);
      assertThat(got.body()).isEqualTo(content);
      assertThat(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(got.body())))
          .isEqualTo(sha);
      assertThat(new String(
              get(server.uri() + "/runc/v1.1.5/runc.sha256sum").body(), StandardCharsets.UTF_8))
          .isEqualTo(sha + "  runc.amd64\n");
      assertThat(server.requests())
          .containsExactly(
              "GET /runc/v1.1.5/runc.amd64 200", "GET /runc/v1.1.5/runc.sha256sum 200");
    }
  }

  @Test
  void publishesEveryChecksumDocumentInItsProjectsFormat(@TempDir Path dir) throws Exception {
    ArtifactRepository repo = new ArtifactRepository(dir);
    String kubelet =
        repo.put(DownloadArtifact.KUBERNETES, "1.31.2", "amd64", "kubelet", new byte[] {1});
    String containerd = repo.put(DownloadArtifact.CONTAINERD, "2.0.4", "amd64", "", new byte[] {2});
    String runcAmd64 = repo.put(DownloadArtifact.RUNC, "1.1.12", "amd64", "", new byte[] {3});
    String runcArm64 = repo.put(DownloadArtifact.RUNC, "1.1.12", "arm64", "", new byte[] {4});
    String cni = repo.put(DownloadArtifact.CNI, "1.5.1", "amd64", "", new byte[] {5});
    String crictl = repo.put(DownloadArtifact.CRICTL, "1.31.0", "amd64", "", new byte[] {6});
    String coredns = repo.put(DownloadArtifact.LOCALDNS, "1.11.3", "amd64", "", new byte[] {7});

    assertThat(dir.resolve("kubernetes/v1.31.2/bin/linux/amd64/kubelet.sha256"))
        .hasContent(kubelet);
    assertThat(dir.resolve("containerd/v2.0.4/containerd-2.0.4-linux-amd64.tar.gz.sha256sum"))
        .hasContent(containerd + "  containerd-2.0.4-linux-amd64.tar.gz");
    assertThat(dir.resolve("runc/v1.1.12/runc.sha256sum"))
        .hasContent(runcAmd64 + "  runc.amd64\n" + runcArm64 + "  runc.arm64");
    assertThat(dir.resolve("cni/v1.5.1/cni-plugins-linux-amd64-v1.5.1.tgz.sha256"))
        .hasContent(cni + "  cni-plugins-linux-amd64-v1.5.1.tgz");
    assertThat(dir.resolve("crictl/v1.31.0/crictl-v1.31.0-linux-amd64.tar.gz.sha256"))
        .hasContent(crictl + "  crictl-v1.31.0-linux-amd64.tar.gz");
    assertThat(dir.resolve("localdns/v1.11.3/coredns_1.11.3_linux_amd64.tgz.sha256"))
        .hasContent(coredns + "  coredns_1.11.3_linux_amd64.tgz");
    assertThat(repo.has(DownloadArtifact.RUNC, "1.1.12", "arm64", "")).isTrue();
    assertThat(repo.has(DownloadArtifact.RUNC, "1.2.0", "arm64", "")).isFalse();
  }

  @Test
  void kubernetesBinariesFollowTheDlK8sIoLayout(@TempDir Path dir) throws Exception {
    ArtifactRepository repo = new ArtifactRepository(dir);
    repo.put(DownloadArtifact.KUBERNETES, "1.31.2", "amd64", "kubelet", new byte[] {1});

    assertThat(dir.resolve("kubernetes/v1.31.2/bin/linux/amd64/kubelet")).exists();
    assertThat(dir.resolve("kubernetes/v1.31.2/bin/linux/amd64/kubelet.sha256")).exists();
  }

  @Test
  void answers404ForMissingFilesDirectoriesAndPathsOutsideTheRoot(@TempDir Path dir)
      throws Exception {
    Path root = Files.createDirectories(dir.resolve("root"));
    Files.writeString(dir.resolve("secret"), "outside");
    Files.createDirectories(root.resolve("containerd"));
    try (ArtifactServer server = ArtifactServer.serve(root)) {
      assertThat(get(server.uri() + "/nothing-here").statusCode()).isEqualTo(404);
      assertThat(get(server.uri() + "/containerd").statusCode()).isEqualTo(404);
      assertThat(get(server.uri() + "/containerd/../../secret").statusCode()).isEqualTo(404);
      assertThat(get(server.uri() + "/%2e%2e/secret").statusCode()).isEqualTo(404);
    }
  }

  @Test
  void listensOnLoopbackOnly(@TempDir Path dir) throws Exception {
    try (ArtifactServer server = ArtifactServer.serve(dir)) {
      assertThat(server.uri().getHost()).isEqualTo("127.0.0.1");
    }
  }

  @Test
  void aCappedServerSendsNoFasterThanItsRateAndTheBytesUnchanged(@TempDir Path dir)
      throws Exception {
    byte[] content = new byte[384 * 1024];
    new Random(17).nextBytes(content);
    Files.write(dir.resolve("blob"), content);

    try (ArtifactServer server = ArtifactServer.serve(dir, 1024 * 1024)) {
      long start = System.nanoTime();
      HttpResponse<byte[]> got = get(server.uri("blob").toString());
      Duration took = Duration.ofNanos(System.nanoTime() - start);

      assertThat(got.body()).isEqualTo(content);
      assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(350));
    }
  }

  @Test
  void aRateMustBePositive(@TempDir Path dir) {
    assertThatThrownBy(() -> ArtifactServer.serve(dir, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bytesPerSecond must be positive");
  }

  private HttpResponse<byte[]> get(String url) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(url)).GET().build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }
}
