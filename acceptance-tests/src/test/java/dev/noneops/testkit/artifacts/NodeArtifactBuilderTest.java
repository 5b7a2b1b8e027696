package dev.noneops.testkit.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.noneops.core.config.DownloadArtifact;
import dev.noneops.testkit.standins.StandInScripts;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NodeArtifactBuilderTest {
  private static final ArtifactSet STAND_INS = new ArtifactSet(
      "1.31.2",
      ArtifactSet.Runtime.standIn("2.0.4"),
      ArtifactSet.Runtime.standIn("1.1.12"),
      "1.5.1",
      "1.31.0",
      "1.11.3",
      "amd64",
      false);

  @Test
  void publishesEveryArtifactOfASetInTheUpstreamShapes(@TempDir Path dir) throws Exception {
    ArtifactRepository repo = new ArtifactRepository(dir.resolve("repo"));
    builder(repo, dir).publish(STAND_INS);

    for (String bin : List.of("kubelet", "kubectl", "kube-proxy")) {
      assertThat(repo.has(DownloadArtifact.KUBERNETES, "1.31.2", "amd64", bin))
          .as(bin)
          .isTrue();
    }
    assertThat(entries(repo.path(DownloadArtifact.CONTAINERD, "2.0.4", "amd64", "")))
        .containsExactly("bin/containerd", "bin/containerd-shim-runc-v2", "bin/ctr");
    assertThat(entries(repo.path(DownloadArtifact.CNI, "1.5.1", "amd64", "")))
        .containsExactlyElementsOf(StandInScripts.CNI_PLUGINS);
    assertThat(entries(repo.path(DownloadArtifact.CRICTL, "1.31.0", "amd64", "")))
        .containsExactly("crictl");
    assertThat(entries(repo.path(DownloadArtifact.LOCALDNS, "1.11.3", "amd64", "")))
        .containsExactly("coredns");
    assertThat(repo.path(DownloadArtifact.LOCALDNS, "1.11.3", "amd64", ""))
        .hasFileName("coredns_1.11.3_linux_amd64.tgz");
    assertThat(Files.readString(repo.path(DownloadArtifact.RUNC, "1.1.12", "amd64", "")))
        .contains("runc stand-in");
  }

  @Test
  void aBrokenKubeletSetShipsAKubeletThatIsToldNeverToBecomeHealthy(@TempDir Path dir)
      throws Exception {
    ArtifactRepository repo = new ArtifactRepository(dir.resolve("repo"));
    builder(repo, dir).publish(STAND_INS.withBrokenKubelet("1.31.3"));

    String kubelet =
        Files.readString(repo.path(DownloadArtifact.KUBERNETES, "1.31.3", "amd64", "kubelet"));
    assertThat(kubelet).contains("--standin-never-healthy");
  }

  @Test
  void realContainerdComesFromDebiansPackageWithoutInstallingIt(@TempDir Path dir)
      throws Exception {
    assumeThat(DebianPackages.toolsAvailable())
        .as("apt-get and dpkg-deb are needed")
        .isTrue();
    ArtifactRepository repo = new ArtifactRepository(dir.resolve("repo"));
    DebianPackages debian = DebianPackages.inUserCache();
    Path runcTree;
    try {
      runcTree = debian.extracted("runc", "");
    } catch (DebianPackages.PackageUnavailableException e) {
      assumeThat(e.getMessage()).as("Debian's package archive is not reachable").isNull();
      return;
    }
    assertThat(runcTree.resolve("usr/sbin/runc")).isExecutable();
    assertThat(Files.exists(Path.of("/usr/sbin/runc"))
            && Files.isSameFile(runcTree.resolve("usr/sbin/runc"), Path.of("/usr/sbin/runc")))
        .as("extracted, not installed")
        .isFalse();

    ArtifactSet real = STAND_INS.withContainerd(ArtifactSet.Runtime.fromDebian("1.6.20", ""));
    new NodeArtifactBuilder(repo, debian, StandInScripts.ofThisJvm()).publish(real);
    assertThat(entries(repo.path(DownloadArtifact.CONTAINERD, "1.6.20", "amd64", "")))
        .containsExactly("bin/containerd", "bin/containerd-shim-runc-v2", "bin/ctr");
  }

  private static NodeArtifactBuilder builder(ArtifactRepository repo, Path dir) throws Exception {
    return new NodeArtifactBuilder(
        repo, new DebianPackages(dir.resolve("debian")), StandInScripts.ofThisJvm());
  }

  private static List<String> entries(Path tarGz) throws Exception {
    List<String> names = new ArrayList<>();
    try (InputStream in = Files.newInputStream(tarGz);
        TarArchiveInputStream tar = new TarArchiveInputStream(new GZIPInputStream(in))) {
      for (TarArchiveEntry e = tar.getNextEntry(); e != null; e = tar.getNextEntry()) {
        names.add(e.getName());
        assertThat(e.getMode() & 0777).as(e.getName()).isEqualTo(0755);
      }
    }
    return names;
  }
}
