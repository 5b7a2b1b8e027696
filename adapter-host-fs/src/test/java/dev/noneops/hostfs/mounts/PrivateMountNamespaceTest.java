package dev.noneops.hostfs.mounts;

import static dev.noneops.hostfs.testing.PrivateMountNamespace.bind;
import static dev.noneops.hostfs.testing.PrivateMountNamespace.mountTmpfs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.hostfs.files.PosixHostFiles;
import dev.noneops.hostfs.nativeio.Syscalls;
import dev.noneops.hostfs.nativeio.Umount2;
import dev.noneops.hostfs.testing.PrivateMountNamespace;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.mounts.MountEntry;
import dev.noneops.ports.mounts.MountTable;
import dev.noneops.ports.mounts.UnmountFlag;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What only a real kernel can show: mounts, unmounts, mount identity and cross-device errors.
 * Runs as root in the private mount namespace of the test JVM; skips otherwise.
 */
class PrivateMountNamespaceTest {

  private static final Path MOUNTINFO = Path.of("/proc/self/mountinfo");

  @TempDir
  Path dir;

  private final MountTable mounts = new ProcMountTable(MOUNTINFO, Umount2.load());
  private final MountLookup table = new MountLookup(MOUNTINFO);
  private final HostFiles files = new PosixHostFiles(Syscalls.load(), StatxMountIds.load(table));

  @BeforeEach
  void requirePrivateNamespace() throws IOException {
    PrivateMountNamespace.assumeActive();
  }

  @AfterEach
  void detachLeftovers() throws Exception {
    PrivateMountNamespace.detachAllBelow(dir);
  }

  private List<MountEntry> at(Path mountPoint) throws IOException {
    return mounts.mounts().stream()
        .filter(m -> m.mountPoint().equals(mountPoint))
        .toList();
  }

  private static void assertErrno(ThrowingCallable call, Errno errno) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            HostIOException.class, e -> assertThat(e.errno()).isEqualTo(errno));
  }

  @Test
  void listsANewMountWithItsEscapedPathAndUnmountsIt() throws Exception {
    Path target = Files.createDirectory(dir.resolve("pod volume\twith tab"));
    mountTmpfs(target);

    List<MountEntry> found = at(target);
    assertThat(found).singleElement().satisfies(m -> {
      assertThat(m.fsType()).isEqualTo("tmpfs");
      assertThat(m.source()).isEqualTo("noneops-test");
    });

    mounts.unmount(target, Set.of());

    assertThat(at(target)).isEmpty();
  }

  @Test
  void unmountsOnlyTheTopmostOfStackedMounts() throws Exception {
    Path target = Files.createDirectory(dir.resolve("stacked"));
    mountTmpfs(target);
    mountTmpfs(target);
    assertThat(at(target)).hasSize(2);

    mounts.unmount(target, Set.of());

    assertThat(at(target)).hasSize(1);
    mounts.unmount(target, Set.of(UnmountFlag.NOFOLLOW));
    assertThat(at(target)).isEmpty();
  }

  @Test
  void reportsEinvalWhereNothingIsMountedAndEnoentForAMissingPath() {
    assertErrno(() -> mounts.unmount(dir, Set.of()), Errno.EINVAL);
    assertErrno(() -> mounts.unmount(dir.resolve("absent"), Set.of()), Errno.ENOENT);
  }

  @Test
  void reportsEbusyForAMountInUseAndDetachesItLazily() throws Exception {
    Path target = Files.createDirectory(dir.resolve("busy"));
    mountTmpfs(target);
    Path open = Files.writeString(target.resolve("open"), "held");
    try (FileChannel holder = FileChannel.open(open)) {
      assertErrno(() -> mounts.unmount(target, Set.of()), Errno.EBUSY);

      mounts.unmount(target, Set.of(UnmountFlag.DETACH));

      assertThat(at(target)).isEmpty();
      assertThat(holder.size())
          .as("the detached file system lives on for its open files")
          .isEqualTo(4);
    }
  }

  @Test
  void tellsBindMountsOfOneFileSystemApartByMountIdNotDevice() throws Exception {
    Path source = Files.createDirectory(dir.resolve("source"));
    Path target = Files.createDirectory(dir.resolve("target"));
    mountTmpfs(source);
    Files.createDirectory(source.resolve("sub"));
    bind(source.resolve("sub"), target);

    FileMeta inSource = files.lstat(source.resolve("sub")).orElseThrow();
    FileMeta atTarget = files.lstat(target).orElseThrow();
    FileMeta parent = files.lstat(dir).orElseThrow();

    assertThat(atTarget.device()).isEqualTo(inSource.device());
    assertThat(atTarget.inode()).isEqualTo(inSource.inode());
    assertThat(atTarget.mountId()).isNotEqualTo(inSource.mountId());
    assertThat(inSource.mountId()).isNotEqualTo(parent.mountId());
    MountEntry bound = at(target).get(0);
    assertThat(bound.mountId()).isEqualTo(atTarget.mountId());
    assertThat(bound.root()).isEqualTo("/sub");
    assertThat(table.mountIdOf(target))
        .as("the mount table agrees with statx")
        .isEqualTo(atTarget.mountId());
    assertThat(table.mountIdOf(source.resolve("sub"))).isEqualTo(inSource.mountId());
  }

  @Test
  void refusesToRenameAcrossFileSystemsWithExdev() throws Exception {
    Path other = Files.createDirectory(dir.resolve("other-fs"));
    mountTmpfs(other);
    Path file = Files.writeString(dir.resolve("file"), "x");

    assertErrno(() -> files.renameDurably(file, other.resolve("file")), Errno.EXDEV);
    assertThat(Files.exists(file)).isTrue();
  }

  @Test
  void reportsEnospcWhenAFileSystemFillsAndLeavesNoTempFile() throws Exception {
    Path small = Files.createDirectory(dir.resolve("small"));
    PrivateMountNamespace.mount("-t", "tmpfs", "-o", "size=64k", "noneops-small", small.toString());

    assertErrno(
        () -> files.writeDurably(small.resolve("big"), new byte[1 << 20], 0644), Errno.ENOSPC);
    assertThat(small.toFile().list()).isEmpty();
  }

  @Test
  void reportsErofsOnAReadOnlyMount() throws Exception {
    Path ro = Files.createDirectory(dir.resolve("ro"));
    PrivateMountNamespace.mount("-t", "tmpfs", "-o", "ro,size=64k", "noneops-ro", ro.toString());

    assertErrno(() -> files.writeDurably(ro.resolve("f"), "x", 0644), Errno.EROFS);
    assertErrno(() -> files.createDirectories(ro.resolve("d"), 0755), Errno.EROFS);
  }

  @Test
  void reportsEbusyWhenRemovingAMountPoint() throws Exception {
    Path target = Files.createDirectory(dir.resolve("mp"));
    mountTmpfs(target);

    assertErrno(() -> files.removeDurably(target), Errno.EBUSY);
  }
}
