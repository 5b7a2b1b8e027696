package dev.noneops.hostfs.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.noneops.hostfs.mounts.MountInfoParser;
import dev.noneops.hostfs.mounts.MountLookup;
import dev.noneops.hostfs.nativeio.Syscalls;
import dev.noneops.hostfs.testing.PrivateMountNamespace;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.FileType;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.files.HostLock;
import dev.noneops.ports.mounts.MountEntry;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PosixHostFilesTest {

  private static final Path MOUNTINFO = Path.of("/proc/self/mountinfo");

  @TempDir
  Path dir;

  private final Syscalls syscalls = Syscalls.load();
  private final HostFiles files = new PosixHostFiles(syscalls, new MountLookup(MOUNTINFO));
  private int savedUmask;

  @BeforeEach
  void strictUmask() {
    savedUmask = syscalls.umask(077);
  }

  @AfterEach
  void restoreUmask() {
    syscalls.umask(savedUmask);
  }

  private static int modeOf(Path p) throws IOException {
    return (Integer) Files.getAttribute(p, "unix:mode", java.nio.file.LinkOption.NOFOLLOW_LINKS)
        & 07777;
  }

  private List<String> tempFilesIn(Path d) throws IOException {
    try (var s = Files.list(d)) {
      return s.map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith(HostFiles.TEMP_PREFIX))
          .toList();
    }
  }

  private static void assertErrno(ThrowingCallable call, Errno errno) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            HostIOException.class, e -> assertThat(e.errno()).isEqualTo(errno));
  }

  @Nested
  class DurableWrites {

    @Test
    void createsAFileWithExactlyTheRequestedModeWhateverTheUmask() throws Exception {
      Path target = dir.resolve("kubelet.conf");

      files.writeDurably(target, "a=b\n", 0644);
      files.writeDurably(dir.resolve("setuid"), "x", 04755);

      assertThat(Files.readString(target)).isEqualTo("a=b\n");
      assertThat(modeOf(target)).isEqualTo(0644);
      assertThat(modeOf(dir.resolve("setuid"))).isEqualTo(04755);
    }

    @Test
    void replacesExistingContentAndModeAndLeavesNoTempFileBehind() throws Exception {
      Path target = dir.resolve("config.toml");
      Files.writeString(target, "old content that is longer than the new");
      Files.setPosixFilePermissions(
          target, java.nio.file.attribute.PosixFilePermissions.fromString("rw-rw-rw-"));
      long inodeBefore = (Long) Files.getAttribute(target, "unix:ino");

      long written = files.writeDurably(
          target, new ByteArrayInputStream("new".getBytes(StandardCharsets.UTF_8)), 0600);

      assertThat(written).isEqualTo(3);
      assertThat(Files.readString(target)).isEqualTo("new");
      assertThat(modeOf(target)).isEqualTo(0600);
      assertThat((Long) Files.getAttribute(target, "unix:ino"))
          .as("a new inode was renamed into place")
          .isNotEqualTo(inodeBefore);
      assertThat(tempFilesIn(dir)).isEmpty();
    }

    @Test
    void replacesASymlinkItselfNotItsTarget() throws Exception {
      Path elsewhere = Files.writeString(dir.resolve("elsewhere"), "keep");
      Path link = Files.createSymbolicLink(dir.resolve("link"), elsewhere);

      files.writeDurably(link, "file now", 0644);

      assertThat(Files.isSymbolicLink(link)).isFalse();
      assertThat(Files.readString(link)).isEqualTo("file now");
      assertThat(Files.readString(elsewhere)).isEqualTo("keep");
    }

    @Test
    void keepsTheTempFileOwnerOnlyWhileTheContentIsWritten() throws Exception {
      Path target = dir.resolve("bootstrap-kubeconfig");
      syscalls.umask(0);
      int[] tempMode = {-1};
      InputStream watched = new InputStream() {
        private int n;

        @Override
        public int read() throws IOException {
          if (n == 1) {
            try (var s = Files.list(dir)) {
              Path temp = s.filter(
                      p -> p.getFileName().toString().startsWith(HostFiles.TEMP_PREFIX))
                  .findFirst()
                  .orElseThrow();
              tempMode[0] = modeOf(temp);
            }
          }
          return n++ < 3 ? 's' : -1;
        }
      };

      files.writeDurably(target, watched, 0644);

      assertThat(tempMode[0]).isEqualTo(0600);
      assertThat(modeOf(target)).isEqualTo(0644);
    }

    @Test
    void streamsLargeContent() throws Exception {
      byte[] block = new byte[1 << 20];
      List<InputStream> blocks = java.util.stream.Stream.generate(
              () -> (InputStream) new ByteArrayInputStream(block))
          .limit(8)
          .toList();
      InputStream eightMegabytes =
          new SequenceInputStream(java.util.Collections.enumeration(blocks));

      long written = files.writeDurably(dir.resolve("big"), eightMegabytes, 0644);

      assertThat(written).isEqualTo(8L << 20);
      assertThat(Files.size(dir.resolve("big"))).isEqualTo(8L << 20);
    }

    @Test
    void failsWithEnoentWhenTheParentIsMissing() {
      assertErrno(() -> files.writeDurably(dir.resolve("missing/file"), "x", 0644), Errno.ENOENT);
    }

    @Test
    void failsWithEisdirOverADirectoryAndCleansItsTempFile() throws Exception {
      Path sub = Files.createDirectory(dir.resolve("sub"));

      assertErrno(() -> files.writeDurably(sub, "x", 0644), Errno.EISDIR);
      assertThat(tempFilesIn(dir)).isEmpty();
    }

    @Test
    void leavesTheOldFileAndNoTempFileWhenTheContentStreamFails() throws Exception {
      Path target = Files.writeString(dir.resolve("f"), "old");
      InputStream broken = new InputStream() {
        private int n;

        @Override
        public int read() throws IOException {
          if (n++ < 10) {
            return 'x';
          }
          throw new IOException("source broke");
        }
      };

      assertThatThrownBy(() -> files.writeDurably(target, broken, 0644)).hasMessage("source broke");
      assertThat(Files.readString(target)).isEqualTo("old");
      assertThat(tempFilesIn(dir)).isEmpty();
    }

    @Test
    void rejectsRelativePathsAndImpossibleModes() {
      assertThatThrownBy(() -> files.writeDurably(Path.of("relative"), "x", 0644))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("absolute");
      assertThatThrownBy(() -> files.writeDurably(dir.resolve("f"), "x", 010000))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("mode");
      assertThatThrownBy(() -> files.lstat(Path.of("a/b")))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Nested
  class Metadata {

    @Test
    void reportsNothingForAnAbsentPath() throws Exception {
      assertThat(files.lstat(dir.resolve("absent"))).isEmpty();
      assertThat(files.exists(dir.resolve("absent"))).isFalse();
    }

    @Test
    void reportsTheKernelsFieldsForARegularFile() throws Exception {
      Path f = Files.writeString(dir.resolve("f"), "12345");
      files.chmod(f, 0640);
      Map<String, Object> unix =
          Files.readAttributes(f, "unix:ino,dev,uid,gid", java.nio.file.LinkOption.NOFOLLOW_LINKS);

      FileMeta meta = files.lstat(f).orElseThrow();

      assertThat(meta.type()).isEqualTo(FileType.REGULAR);
      assertThat(meta.mode()).isEqualTo(0640);
      assertThat(meta.size()).isEqualTo(5);
      assertThat(meta.inode()).isEqualTo(unix.get("ino"));
      assertThat(meta.device()).isEqualTo(unix.get("dev"));
      assertThat(meta.uid()).isEqualTo(unix.get("uid"));
      assertThat(meta.gid()).isEqualTo(unix.get("gid"));
      assertThat(meta.path()).isEqualTo(f);
    }

    @Test
    void neverFollowsAFinalSymlinkAndSeesDanglingOnes() throws Exception {
      Path link = Files.createSymbolicLink(dir.resolve("dangling"), Path.of("no/such/target"));

      FileMeta meta = files.lstat(link).orElseThrow();

      assertThat(meta.type()).isEqualTo(FileType.SYMLINK);
      assertThat(meta.size()).isEqualTo("no/such/target".length());
      assertThat(files.exists(link)).isTrue();
    }

    @Test
    void reportsDirectoriesAndFifos() throws Exception {
      Path fifo = dir.resolve("fifo");
      Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
      assertThat(mkfifo.waitFor(10, TimeUnit.SECONDS)).isTrue();

      assertThat(files.lstat(dir).orElseThrow().type()).isEqualTo(FileType.DIRECTORY);
      assertThat(files.lstat(fifo).orElseThrow().type()).isEqualTo(FileType.FIFO);
      assertThat(files.lstat(Path.of("/dev/null")).orElseThrow().type())
          .isEqualTo(FileType.CHAR_DEVICE);
    }

    @Test
    void namesTheMountTheEntryLivesOnAsMountinfoDoes() throws Exception {
      Path f = Files.writeString(dir.resolve("f"), "x");
      MountEntry expected = null;
      Path real = f.toRealPath();
      for (MountEntry e : MountInfoParser.parse(Files.readAllBytes(MOUNTINFO))) {
        if (real.startsWith(e.mountPoint())
            && (expected == null
                || e.mountPoint().getNameCount() >= expected.mountPoint().getNameCount())) {
          expected = e;
        }
      }

      FileMeta meta = files.lstat(f).orElseThrow();

      assertThat(meta.mountId()).isEqualTo(expected.mountId());
      assertThat(files.lstat(Path.of("/proc/self")).orElseThrow().mountId())
          .as("/proc is a mount of its own")
          .isNotEqualTo(meta.mountId());
    }
  }

  @Nested
  class Reading {

    @Test
    void readsBytesTextAndStreams() throws Exception {
      Path f = Files.writeString(dir.resolve("f"), "h\u00e9llo");

      assertThat(files.readString(f)).isEqualTo("h\u00e9llo");
      try (InputStream in = files.openRead(f)) {
        assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("h\u00e9llo");
      }
    }

    @Test
    void reportsEnoentAndEisdir() throws Exception {
      assertErrno(() -> files.read(dir.resolve("absent")), Errno.ENOENT);
      assertErrno(() -> files.read(dir), Errno.EISDIR);
      assertErrno(() -> files.openRead(dir.resolve("absent")), Errno.ENOENT);
    }

    @Test
    void listsNamesSortedWithoutDotEntries() throws Exception {
      Files.createFile(dir.resolve("b"));
      Files.createDirectory(dir.resolve("a"));
      Files.createSymbolicLink(dir.resolve("c"), Path.of("nowhere"));

      assertThat(files.list(dir)).containsExactly("a", "b", "c");
      assertErrno(() -> files.list(dir.resolve("b")), Errno.ENOTDIR);
      assertErrno(() -> files.list(dir.resolve("absent")), Errno.ENOENT);
    }

    @Test
    void readsASymlinkTargetVerbatimAndRefusesOtherEntries() throws Exception {
      Path link = Files.createSymbolicLink(dir.resolve("current"), Path.of("v1.2.3-abc"));
      Path regular = Files.createFile(dir.resolve("regular"));

      assertThat(files.readLink(link)).isEqualTo("v1.2.3-abc");
      assertErrno(() -> files.readLink(regular), Errno.EINVAL);
      assertErrno(() -> files.readLink(dir.resolve("absent")), Errno.ENOENT);
    }
  }

  @Nested
  class Directories {

    @Test
    void createsEveryMissingParentWithTheExactMode() throws Exception {
      Path deep = dir.resolve("a/b/c");

      files.createDirectories(deep, 0750);

      assertThat(modeOf(dir.resolve("a"))).isEqualTo(0750);
      assertThat(modeOf(dir.resolve("a/b"))).isEqualTo(0750);
      assertThat(modeOf(deep)).isEqualTo(0750);
    }

    @Test
    void leavesExistingDirectoriesAsTheyAre() throws Exception {
      Path existing = Files.createDirectory(dir.resolve("existing"));
      files.chmod(existing, 0700);

      files.createDirectories(existing.resolve("child"), 0755);
      files.createDirectories(existing, 0755);

      assertThat(modeOf(existing)).isEqualTo(0700);
      assertThat(modeOf(existing.resolve("child"))).isEqualTo(0755);
    }

    @Test
    void followsASymlinkToADirectoryLikeMkdirP() throws Exception {
      Path real = Files.createDirectory(dir.resolve("real"));
      Path link = Files.createSymbolicLink(dir.resolve("link"), real);

      files.createDirectories(link.resolve("inside"), 0755);

      assertThat(Files.isDirectory(real.resolve("inside"))).isTrue();
    }

    @Test
    void failsWithEnotdirWhenAComponentIsAFile() throws Exception {
      Files.createFile(dir.resolve("file"));
      Files.createSymbolicLink(dir.resolve("link-to-file"), dir.resolve("file"));

      assertErrno(() -> files.createDirectories(dir.resolve("file/sub"), 0755), Errno.ENOTDIR);
      assertErrno(() -> files.createDirectories(dir.resolve("file"), 0755), Errno.ENOTDIR);
      assertErrno(() -> files.createDirectories(dir.resolve("link-to-file"), 0755), Errno.ENOTDIR);
    }
  }

  @Nested
  class Symlinks {

    @Test
    void createsAndAtomicallyFlipsASymlink() throws Exception {
      Path current = dir.resolve("current");

      files.symlinkDurably(current, "v1");
      files.symlinkDurably(current, "v2");

      assertThat(Files.readSymbolicLink(current)).isEqualTo(Path.of("v2"));
      assertThat(tempFilesIn(dir)).isEmpty();
    }

    @Test
    void refusesToReplaceADirectoryOrARegularFile() throws Exception {
      Path sub = Files.createDirectory(dir.resolve("sub"));
      Path file = Files.createFile(dir.resolve("file"));

      assertErrno(() -> files.symlinkDurably(sub, "v1"), Errno.EISDIR);
      assertErrno(() -> files.symlinkDurably(file, "v1"), Errno.EEXIST);
      assertThat(Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS))
          .isTrue();
      assertThat(tempFilesIn(dir)).isEmpty();
    }
  }

  @Nested
  class RenamesAndRemovals {

    @Test
    void renamesReplacingAFileAndAnEmptyDirectory() throws Exception {
      Path from = Files.writeString(dir.resolve("from"), "new");
      Path to = Files.writeString(dir.resolve("to"), "old");
      Path fromDir = Files.createDirectories(dir.resolve("d1/content"));
      Path toDir = Files.createDirectory(dir.resolve("d2"));

      files.renameDurably(from, to);
      files.renameDurably(fromDir.getParent(), toDir);

      assertThat(Files.readString(to)).isEqualTo("new");
      assertThat(Files.exists(from)).isFalse();
      assertThat(Files.isDirectory(toDir.resolve("content"))).isTrue();
    }

    @Test
    void refusesToRenameOverANonEmptyDirectory() throws Exception {
      Path a = Files.createDirectories(dir.resolve("a"));
      Path b = Files.createDirectories(dir.resolve("b/child"));

      assertThatThrownBy(() -> files.renameDurably(a, b.getParent()))
          .isInstanceOfSatisfying(
              HostIOException.class,
              e -> assertThat(e.errno()).isIn(Errno.ENOTEMPTY, Errno.EEXIST));
      assertErrno(() -> files.renameDurably(dir.resolve("absent"), dir.resolve("x")), Errno.ENOENT);
    }

    @Test
    void removesFilesSymlinksButNotTheirTargetsAndEmptyDirectories() throws Exception {
      Path target = Files.writeString(dir.resolve("target"), "x");
      Path link = Files.createSymbolicLink(dir.resolve("link"), target);
      Path empty = Files.createDirectory(dir.resolve("empty"));

      files.removeDurably(link);
      files.removeDurably(empty);
      files.delete(target);

      assertThat(dir.toFile().list()).isEmpty();
    }

    @Test
    void reportsEnoentAndEnotempty() throws Exception {
      Path full = Files.createDirectories(dir.resolve("full/child"));

      assertErrno(() -> files.removeDurably(dir.resolve("absent")), Errno.ENOENT);
      assertErrno(() -> files.delete(full.getParent()), Errno.ENOTEMPTY);
      files.syncDirectory(dir);
    }
  }

  @Nested
  class Permissions {

    @Test
    void setsModesExactlyIncludingTheSpecialBits() throws Exception {
      Path d = Files.createDirectory(dir.resolve("sticky"));

      files.chmod(d, 01777);

      assertThat(modeOf(d)).isEqualTo(01777);
    }

    @Test
    void refusesToChmodASymlinkBecauseLinuxCannot() throws Exception {
      Path link = Files.createSymbolicLink(dir.resolve("link"), Path.of("x"));

      assertThatThrownBy(() -> files.chmod(link, 0600))
          .isInstanceOfSatisfying(
              HostIOException.class, e -> assertThat(e.operation()).isEqualTo("chmod"))
          .hasMessageContaining(link.toString());
    }

    @Test
    void changesOwnershipWithoutFollowingSymlinks() throws Exception {
      assumeTrue(PrivateMountNamespace.isRoot(), "chown to another user needs root");
      Path target = Files.createFile(dir.resolve("target"));
      Path link = Files.createSymbolicLink(dir.resolve("link"), target);

      files.chown(link, 1234, 5678);

      assertThat(files.lstat(link).orElseThrow().uid()).isEqualTo(1234);
      assertThat(files.lstat(link).orElseThrow().gid()).isEqualTo(5678);
      assertThat(files.lstat(target).orElseThrow().uid()).isZero();
      assertErrno(() -> files.chown(dir.resolve("absent"), 1, 1), Errno.ENOENT);
    }
  }

  @Nested
  class Locks {

    @Test
    void isExclusiveBetweenTwoAttemptsInOneProcessAndCreatesTheFileWithMode0600() throws Exception {
      Path lockFile = dir.resolve(".lock");

      Optional<HostLock> first = files.tryLock(lockFile);
      Optional<HostLock> second = files.tryLock(lockFile);

      assertThat(first).isPresent();
      assertThat(second).isEmpty();
      assertThat(modeOf(lockFile)).isEqualTo(0600);
      first.get().close();
      Optional<HostLock> third = files.tryLock(lockFile);
      assertThat(third).isPresent();
      third.get().close();
    }

    @Test
    void survivesOtherDescriptorsOfTheSameFileBeingClosed() throws Exception {
      Path lockFile = dir.resolve(".lock");
      try (HostLock held = files.tryLock(lockFile).orElseThrow()) {
        files.read(lockFile);
        Files.newByteChannel(lockFile).close();

        assertThat(files.tryLock(lockFile)).isEmpty();
        assertThat(otherProcessCanLock(lockFile))
            .as("another process can take the lock")
            .isFalse();
      }
      assertThat(otherProcessCanLock(lockFile)).isTrue();
    }

    @Test
    void closingTwiceIsHarmless() throws Exception {
      HostLock lock = files.tryLock(dir.resolve(".lock")).orElseThrow();
      lock.close();
      lock.close();
      assertThat(files.tryLock(dir.resolve(".lock"))).isPresent();
    }

    private boolean otherProcessCanLock(Path lockFile) throws Exception {
      Process p = new ProcessBuilder(
              "flock", "--nonblock", "--exclusive", lockFile.toString(), "true")
          .start();
      assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
      return p.exitValue() == 0;
    }
  }
}
