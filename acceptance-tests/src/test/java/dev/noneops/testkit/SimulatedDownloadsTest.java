package dev.noneops.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.download.ArtifactDownloader;
import dev.noneops.ports.download.DownloadException;
import dev.noneops.ports.download.DownloadListener;
import dev.noneops.ports.download.Sha256;
import dev.noneops.testkit.download.SimArtifactRepository;
import dev.noneops.testkit.fixtures.artifacts.TarGz;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.junit.jupiter.api.Test;

/** The in-memory artifact server and the downloader over it. */
class SimulatedDownloadsTest {
  private final SimulatedHost host = SimulatedHost.create();
  private final ArtifactDownloader downloads = host.ports().downloads();
  private final URI url = URI.create("https://dl.sim/kubernetes/v1.31.2/bin/linux/amd64/kubelet");
  private final Path dest = Path.of("/opt/kubelet");

  @Test
  void theSha256OfASignedUrlIsPublishedBesideItsPathWithTheQueryKept() throws IOException {
    URI signed = URI.create("https://bucket.example.com/k8s/kubelet?X-Amz-Signature=5ec12e7");

    String hex = host.artifacts().publishWithSha256(signed, new byte[10]);

    assertThat(new String(
                downloads.fetch(
                    URI.create(
                        "https://bucket.example.com/k8s/kubelet.sha256?X-Amz-Signature=5ec12e7"),
                    100),
                StandardCharsets.US_ASCII)
            .trim())
        .isEqualTo(hex);
  }

  @Test
  void aSecondDownloadOfVerifiedContentTransfersZeroBytes() throws IOException {
    String hex = host.artifacts().publishWithSha256(url, new byte[1000]);
    downloads.download(url, Optional.of(new Sha256(hex)), dest, 1 << 20, DownloadListener.NONE);
    long served = host.artifacts().bytesServed();
    assertThat(downloads
            .download(url, Optional.of(new Sha256(hex)), dest, 1 << 20, DownloadListener.NONE)
            .bytesTransferred())
        .isZero();
    assertThat(host.artifacts().bytesServed()).isEqualTo(served).isEqualTo(1000);
    assertThat(new String(downloads.fetch(URI.create(url + ".sha256"), 100)).trim())
        .isEqualTo(hex);
  }

  @Test
  void transientFailuresAreRetriedWithBackoffOnTheVirtualClock() throws IOException {
    host.artifacts().publish(url, new byte[] {1, 2, 3});
    host.artifacts().failTransiently(url, 2);
    assertThat(downloads
            .download(url, Optional.empty(), dest, 100, DownloadListener.NONE)
            .bytes())
        .isEqualTo(3);
    assertThat(host.artifacts().requests()).isEqualTo(3);
    assertThat(host.clock().elapsed()).isPositive();
  }

  @Test
  void aServerThatKeepsFailingIsATransportErrorAndA404IsNotRetried() {
    host.artifacts().publish(url, new byte[] {1});
    host.artifacts().failTransiently(url, 5);
    assertThatThrownBy(
            () -> downloads.download(url, Optional.empty(), dest, 100, DownloadListener.NONE))
        .isInstanceOfSatisfying(
            DownloadException.class,
            e -> assertThat(e.reason()).isEqualTo(DownloadException.Reason.TRANSPORT));
    URI missing = URI.create("https://dl.sim/missing");
    long before = host.artifacts().requests();
    assertThatThrownBy(() -> downloads.fetch(missing, 100))
        .isInstanceOfSatisfying(
            DownloadException.class,
            e -> assertThat(e.reason()).isEqualTo(DownloadException.Reason.HTTP_STATUS));
    assertThat(host.artifacts().requests() - before).isEqualTo(1);
  }

  @Test
  void tarGzBuildsARealArchive() throws IOException {
    byte[] archive = TarGz.builder()
        .directory("bin", 0755)
        .file("bin/containerd", "elf", 0755)
        .symlink("bin/ctr-link", "containerd")
        .build();
    List<String> entries = new ArrayList<>();
    try (TarArchiveInputStream tar = new TarArchiveInputStream(
        new GzipCompressorInputStream(new ByteArrayInputStream(archive)))) {
      for (TarArchiveEntry e = tar.getNextEntry(); e != null; e = tar.getNextEntry()) {
        entries.add(e.getName() + " " + Integer.toOctalString(e.getMode() & 07777)
            + (e.isSymbolicLink() ? " -> " + e.getLinkName() : ""));
      }
    }
    assertThat(entries)
        .containsExactly("bin/ 755", "bin/containerd 755", "bin/ctr-link 777 -> containerd");
    assertThat(SimArtifactRepository.sha256Hex(archive)).hasSize(64);
  }
}
