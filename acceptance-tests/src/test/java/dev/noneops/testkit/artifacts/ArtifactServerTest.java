package dev.noneops.testkit.artifacts;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArtifactServerTest {
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void servesAnArtifactAndItsSha256AtTheUrlCoreComputesFromABaseUrlOverride(@TempDir Path dir) throws Exception {
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
      assertThat(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(got.body()))).isEqualTo(sha);
      assertThat(new String(get(url + ".sha256").body(), StandardCharsets.UTF_8)).startsWith(sha + "  runc.amd64");
      assertThat(server.requests()).containsExactly("GET /runc/v1.1.5/runc.amd64 200", "GET /runc/v1.1.5/runc.amd64.sha256 200");
    }
  }

  @Test
  void kubernetesBinariesFollowTheDlK8sIoLayout(@TempDir Path dir) throws Exception {
    ArtifactRepository repo = new ArtifactRepository(dir);
    repo.put(DownloadArtifact.KUBERNETES, "1.31.2", "amd64", "kubelet", new byte[] {1});

    assertThat(dir.resolve("kubernetes/v1.31.2/bin/linux/amd64/kubelet")).exists();
    assertThat(dir.resolve("kubernetes/v1.31.2/bin/linux/amd64/kubelet.sha256")).exists();
  }

  @Test
  void answers404ForMissingFilesDirectoriesAndPathsOutsideTheRoot(@TempDir Path dir) throws Exception {
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

  private HttpResponse<byte[]> get(String url) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
  }
}
