package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.hash.Hashing;
import dev.noneops.core.goalstate.Artifact;
import dev.noneops.core.node.internal.version.Manifest;
import dev.noneops.core.node.internal.version.SafeTarExtractor;
import dev.noneops.core.node.internal.version.UnsafeArchiveException;
import dev.noneops.core.testing.SimulatedFiles;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SafeTarExtractorTest {
  private static final Path ARCHIVE = Path.of("/stage/a.tgz");
  private static final Path VERSION = Path.of("/stage/v1");
  private static final Artifact.Install.Tarball BIN_FROM_BIN =
      new Artifact.Install.Tarball("bin/", "bin", List.of());
  private static final Artifact.Install.Tarball CNI_FLAT =
      new Artifact.Install.Tarball("", "libexec/cni", List.of());

  private final SimulatedFiles host = new SimulatedFiles();
  private final HostFiles files = host.port();
  private final SafeTarExtractor extractor = new SafeTarExtractor(files);

  @BeforeEach
  void stage() throws IOException {
    files.createDirectories(VERSION, 0755);
  }

  private List<Manifest.Entry> extract(byte[] tgz, Artifact.Install.Tarball install)
      throws IOException {
    files.writeDurably(ARCHIVE, tgz, 0644);
    return extractor.extract(ARCHIVE, "a.tgz", VERSION, install);
  }

  @Test
  void installsRegularFilesBelowThePrefixWithSanitisedModesAndDigests() throws IOException {
    byte[] tgz = new Tarballs()
        .dir("bin")
        .file("bin/containerd", 04775, "daemon")
        .file("bin/notes.txt", 0666, "text")
        .file("README.md", 0644, "outside the prefix")
        .build();

    List<Manifest.Entry> entries = extract(tgz, BIN_FROM_BIN);

    assertThat(entries)
        .containsExactly(
            new Manifest.Entry("bin/containerd", 6, 0755, sha("daemon")),
            new Manifest.Entry("bin/notes.txt", 4, 0644, sha("text")));
    assertThat(host.tree())
        .containsEntry("/stage/v1/bin/containerd", "file 0755 daemon")
        .containsEntry("/stage/v1/bin/notes.txt", "file 0644 text")
        .doesNotContainKey("/stage/v1/README.md");
  }

  @Test
  void flatArchivesGoBelowTheTargetDirectoryAndLeadingDotSlashIsDropped() throws IOException {
    byte[] tgz = new Tarballs()
        .dir("./")
        .file("./bridge", 0755, "b")
        .file("./loopback", 0755, "l")
        .build();
    assertThat(extract(tgz, CNI_FLAT))
        .extracting(Manifest.Entry::path)
        .containsExactly("libexec/cni/bridge", "libexec/cni/loopback");
  }

  @Test
  void onlyTheNamedFilesAreTakenAndAMissingOneIsAnError() throws IOException {
    byte[] tgz =
        new Tarballs().file("crictl", 0755, "c").file("LICENSE", 0644, "l").build();
    assertThat(extract(tgz, new Artifact.Install.Tarball("", "bin", List.of("crictl"))))
        .extracting(Manifest.Entry::path)
        .containsExactly("bin/crictl");

    byte[] without = new Tarballs().file("LICENSE", 0644, "l").build();
    assertThatThrownBy(
            () -> extract(without, new Artifact.Install.Tarball("", "bin", List.of("coredns"))))
        .isInstanceOf(UnsafeArchiveException.class)
        .hasMessageContaining("coredns")
        .hasMessageContaining("missing");
  }

  @Test
  void anAbsolutePathIsRefused() throws IOException {
    byte[] tgz = new Tarballs().file("/etc/passwd", 0644, "root::0:0").build();
    assertThatThrownBy(() -> extract(tgz, CNI_FLAT))
        .isInstanceOf(UnsafeArchiveException.class)
        .hasMessageContaining("/etc/passwd")
        .hasMessageContaining("absolute");
    assertThat(host.tree()).doesNotContainKey("/etc/passwd");
  }

  @Test
  void dotDotComponentsAreRefused() throws IOException {
    for (String name : List.of("../escape", "bin/../../escape", "bin/./../../../escape")) {
      byte[] tgz = new Tarballs().file(name, 0755, "x").build();
      assertThatThrownBy(() -> extract(tgz, BIN_FROM_BIN))
          .as(name)
          .isInstanceOf(UnsafeArchiveException.class)
          .hasMessageContaining("..");
    }
    assertThat(host.tree().keySet()).noneMatch(p -> p.contains("escape"));
  }

  @Test
  void symlinksPointingOutOfTheTreeAreRefused() throws IOException {
    for (String target : List.of("/etc/shadow", "../../outside", "../x/../../y")) {
      byte[] tgz = new Tarballs().symlink("bin/link", target).build();
      assertThatThrownBy(() -> extract(tgz, BIN_FROM_BIN))
          .as(target)
          .isInstanceOf(UnsafeArchiveException.class)
          .hasMessageContaining("link points out of the tree");
    }
  }

  @Test
  void hardLinksPointingOutOfTheTreeAreRefused() throws IOException {
    byte[] tgz = new Tarballs().hardlink("bin/h", "../../etc/shadow").build();
    assertThatThrownBy(() -> extract(tgz, BIN_FROM_BIN))
        .isInstanceOf(UnsafeArchiveException.class)
        .hasMessageContaining("bin/h");
  }

  @Test
  void linksInsideTheTreeDevicesAndFifosAreSkippedNotInstalled() throws IOException {
    byte[] tgz = new Tarballs()
        .file("bin/ctr", 0755, "ctr")
        .symlink("bin/ctr-alias", "ctr")
        .hardlink("bin/ctr-hard", "bin/ctr")
        .special("bin/dev", TarConstants.LF_CHR)
        .special("bin/pipe", TarConstants.LF_FIFO)
        .build();
    assertThat(extract(tgz, BIN_FROM_BIN))
        .extracting(Manifest.Entry::path)
        .containsExactly("bin/ctr");
    assertThat(host.tree().keySet())
        .filteredOn(p -> p.startsWith("/stage/v1/bin/"))
        .containsExactly("/stage/v1/bin/ctr");
  }

  @Test
  void aDuplicateEntryIsRefused() throws IOException {
    byte[] tgz = new Tarballs()
        .file("bin/runc", 0755, "good")
        .file("bin/runc", 0755, "evil")
        .build();
    assertThatThrownBy(() -> extract(tgz, BIN_FROM_BIN))
        .isInstanceOf(UnsafeArchiveException.class)
        .hasMessageContaining("twice");
  }

  @Test
  void somethingThatIsNotAGzippedTarIsRefusedWithItsName() throws IOException {
    files.writeDurably(ARCHIVE, "<html>404</html>".getBytes(StandardCharsets.UTF_8), 0644);
    assertThatThrownBy(() -> extractor.extract(ARCHIVE, "cni-plugins", VERSION, CNI_FLAT))
        .isInstanceOf(UnsafeArchiveException.class)
        .hasMessageContaining("cni-plugins")
        .hasMessageContaining("gzip");
  }

  private static String sha(String s) {
    return Hashing.sha256().hashString(s, StandardCharsets.UTF_8).toString();
  }
}
