package dev.noneops.acceptance.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.noneops.core.config.RootOnlyPath;
import dev.noneops.core.config.WritableByOthersException;
import dev.noneops.hostfs.RealHost;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RootOnlyPath} on the real kernel's owners and modes, in a temporary directory (below
 * {@code /tmp}, root's and sticky): a file only root can change is accepted; once another user
 * owns it or a directory on the way to it, or its directory's group can write it, it is refused
 * naming that entry.
 */
class RootOnlyPathOnRealFilesTest {
  private static final HostFiles FILES = RealHost.create().files();
  private static final int ALICE = 1000;

  @TempDir
  Path temp;

  private Path dir;
  private Path file;

  @BeforeEach
  void aRootFileInARootDirectory() throws IOException {
    assumeThat((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid"))
        .as("owners can be changed as root only")
        .isZero();
    dir = Files.createDirectory(temp.resolve("etc"));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    file = dir.resolve("node.json");
    Files.writeString(file, "{}");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
  }

  private void refused(Path asked, Path entry, String... named) {
    assertThatThrownBy(() -> new RootOnlyPath(FILES).require("the file", asked))
        .isInstanceOfSatisfying(WritableByOthersException.class, e -> {
          assertThat(e.entry()).isEqualTo(entry);
          assertThat(e.getMessage()).contains(asked.toString()).contains(named);
        });
  }

  @Test
  void aFileOnlyRootCanChangeIsAccepted() {
    assertThatCode(() -> new RootOnlyPath(FILES).require("the file", file))
        .doesNotThrowAnyException();
  }

  @Test
  void aFileAnotherUserOwnsIsRefused() throws IOException {
    Files.setAttribute(file, "unix:uid", ALICE);

    refused(file, file, "owner 1000", "mode 0600");
  }

  @Test
  void aDirectoryItsGroupCanWriteIsRefused() throws IOException {
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxr-x"));

    refused(file, dir, "mode 0775", "its group");
  }

  @Test
  void aLinkIsJudgedByTheDirectoryItLeadsTo() throws IOException {
    Path home = Files.createDirectory(temp.resolve("alice"));
    Files.setAttribute(home, "unix:uid", ALICE);
    Path real = Files.writeString(home.resolve("node.json"), "{}");
    Path link = Files.createSymbolicLink(dir.resolve("linked.json"), real);

    refused(link, home, "owner 1000");
  }
}
