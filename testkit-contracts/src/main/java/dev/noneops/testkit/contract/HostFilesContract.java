package dev.noneops.testkit.contract;

import static dev.noneops.testkit.contract.ContractAssertions.failsWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.noneops.ports.Errno;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.FileType;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.files.HostLock;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@link HostFiles} contract. A subclass supplies the port, a fresh empty scratch directory per
 * test and, when it can, a {@link MountFixture}; the mount-dependent tests are skipped otherwise.
 */
public abstract class HostFilesContract {

  /** The port under test. */
  /** The pid of the process that runs the test, as the port knows it. */
  protected abstract long thisProcess();

  protected abstract HostFiles files();

  /** An existing, empty, writable directory of this test. */
  protected abstract Path scratch();

  /** How to create mounts below {@link #scratch()}; empty when the fixture cannot mount. */
  protected Optional<MountFixture> mounts() {
    return Optional.empty();
  }

  /** Whether the fixture may give files to another owner (it runs as root). */
  protected boolean canChown() {
    return false;
  }

  private Path p(String relative) {
    return scratch().resolve(relative);
  }

  private String text(Path path) throws IOException {
    return new String(files().read(path), StandardCharsets.UTF_8);
  }

  // ---------------------------------------------------------------- writeDurably

  @ParameterizedTest(name = "mode 0{0}")
  @ValueSource(ints = {0600, 0640, 0644, 0666, 0755, 0444})
  void aDurableWriteCreatesTheFileWithExactlyTheModeAsked(int mode) throws IOException {
    files().writeDurably(p("f"), "hello", mode);
    FileMeta meta = files().lstat(p("f")).orElseThrow();
    assertThat(meta.type()).isEqualTo(FileType.REGULAR);
    assertThat(meta.mode()).isEqualTo(mode);
    assertThat(meta.size()).isEqualTo(5);
    assertThat(text(p("f"))).isEqualTo("hello");
  }

  @Test
  void typeOfAnswersAsLstatDoesWithoutFollowingTheLastLink() throws IOException {
    files().writeDurably(p("file"), "x", 0644);
    files().createDirectories(p("dir"), 0755);
    files().symlinkDurably(p("to-dir"), "dir");
    files().symlinkDurably(p("dangling"), "nowhere");

    for (String name : List.of("file", "dir", "to-dir", "dangling", "missing")) {
      assertThat(files().typeOf(p(name)))
          .as(name)
          .isEqualTo(files().lstat(p(name)).map(FileMeta::type));
    }
    assertThat(files().typeOf(p("to-dir"))).contains(FileType.SYMLINK);
    assertThat(files().typeOf(p("missing"))).isEmpty();
    failsWith(() -> files().typeOf(p("file/below")), Errno.ENOTDIR);
  }

  @Test
  void aDurableWriteReplacesContentAndModeExactly() throws IOException {
    files().writeDurably(p("f"), "a much longer first version", 0644);
    files().writeDurably(p("f"), "v2", 0600);
    assertThat(text(p("f"))).isEqualTo("v2");
    assertThat(files().lstat(p("f")).orElseThrow().mode()).isEqualTo(0600);
  }

  @Test
  void aDurableWriteFromAStreamReturnsTheBytesWritten() throws IOException {
    byte[] content = new byte[70_000];
    for (int i = 0; i < content.length; i++) {
      content[i] = (byte) (i * 31);
    }
    assertThat(files().writeDurably(p("big"), new ByteArrayInputStream(content), 0644))
        .isEqualTo(content.length);
    assertThat(files().read(p("big"))).isEqualTo(content);
  }

  @Test
  void aDurableWriteLeavesNoTempFileBehind() throws IOException {
    files().writeDurably(p("f"), "1", 0644);
    files().writeDurably(p("f"), "2", 0644);
    assertThat(files().list(scratch())).containsExactly("f");
  }

  @Test
  void writingIntoAMissingDirectoryFailsWithEnoent() {
    failsWith(() -> files().writeDurably(p("missing/f"), "x", 0644), Errno.ENOENT);
  }

  @Test
  void writingBelowARegularFileFailsWithEnotdir() throws IOException {
    files().writeDurably(p("file"), "x", 0644);
    failsWith(() -> files().writeDurably(p("file/f"), "x", 0644), Errno.ENOTDIR);
  }

  @Test
  void writingOverADirectoryFailsWithEisdir() throws IOException {
    files().createDirectories(p("dir"), 0755);
    failsWith(() -> files().writeDurably(p("dir"), "x", 0644), Errno.EISDIR);
  }

  @Test
  void aDurableWriteReplacesASymlinkInsteadOfWritingThroughIt() throws IOException {
    files().writeDurably(p("target"), "original", 0644);
    files().symlinkDurably(p("link"), "target");
    files().writeDurably(p("link"), "new", 0644);
    assertThat(files().lstat(p("link")).orElseThrow().type()).isEqualTo(FileType.REGULAR);
    assertThat(text(p("target"))).isEqualTo("original");
  }

  // ---------------------------------------------------------------- reading

  @Test
  void readFollowsSymlinks() throws IOException {
    files().createDirectories(p("v1"), 0755);
    files().writeDurably(p("v1/bin"), "binary", 0755);
    files().symlinkDurably(p("current"), "v1");
    assertThat(text(p("current/bin"))).isEqualTo("binary");
  }

  @Test
  void readingAMissingFileFailsWithEnoent() {
    failsWith(() -> files().read(p("nothing")), Errno.ENOENT);
  }

  @Test
  void readingADirectoryFailsWithEisdir() {
    failsWith(() -> files().read(scratch()), Errno.EISDIR);
  }

  @Test
  void openReadStreamsTheContent() throws IOException {
    files().writeDurably(p("f"), "streamed", 0644);
    try (InputStream in = files().openRead(p("f"))) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("streamed");
    }
  }

  @Test
  void lstatDoesNotFollowASymlink() throws IOException {
    files().writeDurably(p("target"), "0123456789", 0644);
    files().symlinkDurably(p("link"), "target");
    FileMeta link = files().lstat(p("link")).orElseThrow();
    assertThat(link.type()).isEqualTo(FileType.SYMLINK);
    assertThat(link.size()).isEqualTo("target".length());
  }

  @Test
  void lstatOfNothingIsEmptyAndADanglingLinkExists() throws IOException {
    assertThat(files().lstat(p("nothing"))).isEmpty();
    assertThat(files().exists(p("nothing"))).isFalse();
    files().symlinkDurably(p("dangling"), "nowhere");
    assertThat(files().exists(p("dangling"))).isTrue();
  }

  @Test
  void existenceBelowAFileOrThroughASymlinkLoopIsAnErrorNotAbsence() throws IOException {
    files().writeDurably(p("file"), "x", 0644);
    files().symlinkDurably(p("loop-a"), "loop-b");
    files().symlinkDurably(p("loop-b"), "loop-a");

    assertThat(files().exists(p("loop-a"))).isTrue();
    assertThat(files().exists(p("missing/child"))).isFalse();
    failsWith(() -> files().exists(p("file/child")), Errno.ENOTDIR);
    failsWith(() -> files().lstat(p("file/child")), Errno.ENOTDIR);
    failsWith(() -> files().exists(p("loop-a/child")), Errno.ELOOP);
    failsWith(() -> files().lstat(p("loop-a/child")), Errno.ELOOP);
  }

  @Test
  void siblingsLiveOnTheSameMountWithDistinctInodes() throws IOException {
    files().writeDurably(p("a"), "a", 0644);
    files().writeDurably(p("b"), "b", 0644);
    FileMeta a = files().lstat(p("a")).orElseThrow();
    FileMeta b = files().lstat(p("b")).orElseThrow();
    assertThat(a.mountId()).isEqualTo(b.mountId());
    assertThat(a.device()).isEqualTo(b.device());
    assertThat(a.inode()).isNotEqualTo(b.inode());
    assertThat(a.path()).isEqualTo(p("a"));
  }

  @Test
  void listIsSortedAndHasNoDotEntries() throws IOException {
    for (String name : new String[] {"b", "a", "c.d", "A"}) {
      files().writeDurably(p(name), name, 0644);
    }
    files().createDirectories(p("dir"), 0755);
    assertThat(files().list(scratch())).containsExactly("A", "a", "b", "c.d", "dir");
  }

  @Test
  void listingAFileFailsWithEnotdirAndNothingWithEnoent() throws IOException {
    files().writeDurably(p("f"), "x", 0644);
    failsWith(() -> files().list(p("f")), Errno.ENOTDIR);
    failsWith(() -> files().list(p("nothing")), Errno.ENOENT);
  }

  @Test
  void readLinkReturnsTheTargetVerbatim() throws IOException {
    files().symlinkDurably(p("rel"), "../x/./y");
    assertThat(files().readLink(p("rel"))).isEqualTo("../x/./y");
  }

  @Test
  void readLinkOfAFileFailsWithEinvalAndOfNothingWithEnoent() throws IOException {
    files().writeDurably(p("f"), "x", 0644);
    failsWith(() -> files().readLink(p("f")), Errno.EINVAL);
    failsWith(() -> files().readLink(p("nothing")), Errno.ENOENT);
  }

  // ---------------------------------------------------------------- directories

  @Test
  void createDirectoriesCreatesEveryMissingLevelWithTheMode() throws IOException {
    files().createDirectories(p("a/b/c"), 0750);
    assertThat(files().lstat(p("a")).orElseThrow().mode()).isEqualTo(0750);
    assertThat(files().lstat(p("a/b/c")).orElseThrow().mode()).isEqualTo(0750);
    assertThat(files().lstat(p("a/b/c")).orElseThrow().isDirectory()).isTrue();
  }

  @Test
  void createDirectoriesLeavesExistingDirectoriesAsTheyAre() throws IOException {
    files().createDirectories(p("a"), 0700);
    files().createDirectories(p("a/b"), 0755);
    files().createDirectories(p("a/b"), 0755);
    assertThat(files().lstat(p("a")).orElseThrow().mode()).isEqualTo(0700);
  }

  @Test
  void createDirectoriesThroughAFileFailsWithEnotdir() throws IOException {
    files().writeDurably(p("f"), "x", 0644);
    failsWith(() -> files().createDirectories(p("f/sub"), 0755), Errno.ENOTDIR);
    failsWith(() -> files().createDirectories(p("f"), 0755), Errno.ENOTDIR, Errno.EEXIST);
  }

  // ---------------------------------------------------------------- symlinks

  @Test
  void symlinkDurablyReplacesAnExistingLink() throws IOException {
    files().symlinkDurably(p("current"), "v1");
    files().symlinkDurably(p("current"), "v2");
    assertThat(files().readLink(p("current"))).isEqualTo("v2");
    assertThat(files().list(scratch())).containsExactly("current");
  }

  @Test
  void symlinkDurablyNeverFollowsTheLinkItReplaces() throws IOException {
    files().createDirectories(p("v1"), 0755);
    files().writeDurably(p("v1/keep"), "x", 0644);
    files().symlinkDurably(p("current"), "v1");
    files().symlinkDurably(p("current"), "v2");
    assertThat(files().readLink(p("current"))).isEqualTo("v2");
    assertThat(files().list(p("v1"))).containsExactly("keep");
  }

  @Test
  void symlinkDurablyRefusesToReplaceAFileOrADirectory() throws IOException {
    files().writeDurably(p("file"), "x", 0644);
    files().createDirectories(p("dir"), 0755);
    failsWith(() -> files().symlinkDurably(p("file"), "t"), Errno.EEXIST, Errno.EISDIR);
    failsWith(() -> files().symlinkDurably(p("dir"), "t"), Errno.EISDIR, Errno.EEXIST);
    assertThat(files().lstat(p("file")).orElseThrow().type()).isEqualTo(FileType.REGULAR);
    assertThat(files().lstat(p("dir")).orElseThrow().type()).isEqualTo(FileType.DIRECTORY);
  }

  // ---------------------------------------------------------------- rename

  @Test
  void renameDurablyMovesAFileAndReplacesTheTarget() throws IOException {
    files().writeDurably(p("a"), "A", 0644);
    files().writeDurably(p("b"), "B", 0644);
    files().renameDurably(p("a"), p("b"));
    assertThat(files().list(scratch())).containsExactly("b");
    assertThat(text(p("b"))).isEqualTo("A");
  }

  @Test
  void renameDurablyReplacesAnEmptyDirectory() throws IOException {
    files().createDirectories(p("staging/x"), 0755);
    files().createDirectories(p("final"), 0755);
    files().renameDurably(p("staging"), p("final"));
    assertThat(files().list(p("final"))).containsExactly("x");
  }

  @Test
  void renamingOntoANonEmptyDirectoryFailsWithEnotempty() throws IOException {
    files().createDirectories(p("src"), 0755);
    files().createDirectories(p("dst/child"), 0755);
    failsWith(() -> files().renameDurably(p("src"), p("dst")), Errno.ENOTEMPTY, Errno.EEXIST);
  }

  @Test
  void renamingSomethingMissingFailsWithEnoent() {
    failsWith(() -> files().renameDurably(p("nothing"), p("x")), Errno.ENOENT);
  }

  @Test
  void renameDurablyMovesASymlinkItself() throws IOException {
    files().symlinkDurably(p("link"), "somewhere");
    files().renameDurably(p("link"), p("moved"));
    assertThat(files().readLink(p("moved"))).isEqualTo("somewhere");
  }

  // ---------------------------------------------------------------- removal

  @Test
  void removeDurablyRemovesALinkButNotItsTarget() throws IOException {
    files().writeDurably(p("target"), "x", 0644);
    files().symlinkDurably(p("link"), "target");
    files().removeDurably(p("link"));
    assertThat(files().list(scratch())).containsExactly("target");
  }

  @Test
  void removeDurablyRemovesFilesAndEmptyDirectories() throws IOException {
    files().writeDurably(p("f"), "x", 0644);
    files().createDirectories(p("d"), 0755);
    files().removeDurably(p("f"));
    files().removeDurably(p("d"));
    assertThat(files().list(scratch())).isEmpty();
  }

  @Test
  void removingANonEmptyDirectoryFailsWithEnotempty() throws IOException {
    files().createDirectories(p("d/child"), 0755);
    failsWith(() -> files().removeDurably(p("d")), Errno.ENOTEMPTY, Errno.EEXIST);
    failsWith(() -> files().delete(p("d")), Errno.ENOTEMPTY, Errno.EEXIST);
  }

  @Test
  void removingNothingFailsWithEnoent() {
    failsWith(() -> files().removeDurably(p("nothing")), Errno.ENOENT);
    failsWith(() -> files().delete(p("nothing")), Errno.ENOENT);
  }

  @Test
  void deleteThenSyncDirectoryRemoves() throws IOException {
    files().writeDurably(p("a"), "x", 0644);
    files().writeDurably(p("b"), "x", 0644);
    files().delete(p("a"));
    files().delete(p("b"));
    files().syncDirectory(scratch());
    assertThat(files().list(scratch())).isEmpty();
  }

  // ---------------------------------------------------------------- metadata

  @ParameterizedTest(name = "mode 0{0}")
  @ValueSource(ints = {0700, 0600, 04755, 02750, 0444})
  void chmodSetsExactlyTheBits(int mode) throws IOException {
    files().writeDurably(p("f"), "x", 0644);
    files().chmod(p("f"), mode);
    assertThat(files().lstat(p("f")).orElseThrow().mode()).isEqualTo(mode);
  }

  @Test
  void chmodOfADirectorySetsTheStickyBit() throws IOException {
    files().createDirectories(p("tmp"), 0755);
    files().chmod(p("tmp"), 01777);
    assertThat(files().lstat(p("tmp")).orElseThrow().mode()).isEqualTo(01777);
  }

  @Test
  void chmodOfNothingFailsWithEnoent() {
    failsWith(() -> files().chmod(p("nothing"), 0644), Errno.ENOENT);
  }

  @Test
  void chownGivesTheFileToAnotherOwner() throws IOException {
    assumeThat(canChown()).as("the fixture may chown").isTrue();
    files().writeDurably(p("f"), "x", 0644);
    files().chown(p("f"), 1234, 5678);
    FileMeta meta = files().lstat(p("f")).orElseThrow();
    assertThat(meta.uid()).isEqualTo(1234);
    assertThat(meta.gid()).isEqualTo(5678);
  }

  @ParameterizedTest(name = "mode 0{0}")
  @ValueSource(ints = {0700, 0600, 04755, 0444})
  void chmodDurablySetsExactlyTheBitsOfAFile(int mode) throws IOException {
    files().writeDurably(p("f"), "x", 0644);
    files().chmodDurably(p("f"), mode);
    assertThat(files().lstat(p("f")).orElseThrow().mode()).isEqualTo(mode);
  }

  @Test
  void chmodDurablyOfADirectorySetsItsBitsAndKeepsItsEntries() throws IOException {
    files().createDirectories(p("dir"), 0755);
    files().writeDurably(p("dir/f"), "x", 0644);
    files().chmodDurably(p("dir"), 0700);
    assertThat(files().lstat(p("dir")).orElseThrow().mode()).isEqualTo(0700);
    assertThat(files().list(p("dir"))).containsExactly("f");
  }

  @Test
  void chownDurablyGivesTheFileToAnotherOwner() throws IOException {
    assumeThat(canChown()).as("the fixture may chown").isTrue();
    files().writeDurably(p("f"), "x", 0644);
    files().chownDurably(p("f"), 1234, 5678);
    FileMeta meta = files().lstat(p("f")).orElseThrow();
    assertThat(meta.uid()).isEqualTo(1234);
    assertThat(meta.gid()).isEqualTo(5678);
    assertThat(meta.mode()).isEqualTo(0644);
  }

  @Test
  void durableMetadataChangesOfNothingFailWithEnoent() {
    failsWith(() -> files().chmodDurably(p("nothing"), 0644), Errno.ENOENT);
    failsWith(() -> files().chownDurably(p("nothing"), 0, 0), Errno.ENOENT);
  }

  @Test
  void durableMetadataChangesRefuseASymlinkAndLeaveItAndItsTargetAlone() throws IOException {
    files().writeDurably(p("target"), "x", 0644);
    files().symlinkDurably(p("link"), "target");
    FileMeta target = files().lstat(p("target")).orElseThrow();
    FileMeta link = files().lstat(p("link")).orElseThrow();

    failsWith(() -> files().chmodDurably(p("link"), 0600), Errno.EINVAL);
    failsWith(() -> files().chownDurably(p("link"), 1234, 5678), Errno.EINVAL);

    assertThat(files().lstat(p("target")).orElseThrow()).isEqualTo(target);
    assertThat(files().lstat(p("link")).orElseThrow()).isEqualTo(link);
  }

  // ---------------------------------------------------------------- times

  /**
   * Lets the filesystem's clock move past the times of the changes made so far. A kernel with
   * coarse timestamps gives every change within one tick (up to 10 ms at HZ=100) the same time,
   * so a change is only guaranteed a new change time once a tick has passed; the simulated host's
   * times are fine-grained, which this wait does not disturb.
   */
  private static void letAClockTickPass() {
    try {
      Thread.sleep(25);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while letting the clock tick", e);
    }
  }

  @Test
  void lstatReportsTimesAndAChangeTimeNoEarlierThanTheModificationTime() throws IOException {
    files().writeDurably(p("f"), "x", 0644);
    FileMeta meta = files().lstat(p("f")).orElseThrow();
    assertThat(meta.hasTimes()).isTrue();
    assertThat(meta.ctimeNanos()).isGreaterThanOrEqualTo(meta.mtimeNanos());
  }

  @Test
  void readingListingAndStatingLeaveEveryTimeAndTheInodeAsTheyWere() throws IOException {
    files().createDirectories(p("dir"), 0755);
    files().writeDurably(p("dir/f"), "content", 0644);
    files().symlinkDurably(p("link"), "dir/f");
    FileMeta file = files().lstat(p("dir/f")).orElseThrow();
    FileMeta dir = files().lstat(p("dir")).orElseThrow();
    letAClockTickPass();

    files().read(p("dir/f"));
    try (InputStream in = files().openRead(p("link"))) {
      in.readAllBytes();
    }
    files().list(p("dir"));
    files().readLink(p("link"));

    assertThat(files().lstat(p("dir/f")).orElseThrow()).isEqualTo(file);
    assertThat(files().lstat(p("dir")).orElseThrow()).isEqualTo(dir);
  }

  @Test
  void replacingTheContentGivesANewInodeWithLaterTimes() throws IOException {
    files().writeDurably(p("f"), "one", 0755);
    FileMeta before = files().lstat(p("f")).orElseThrow();
    letAClockTickPass();

    files().writeDurably(p("f"), "two", 0755);

    FileMeta after = files().lstat(p("f")).orElseThrow();
    assertThat(after.size()).isEqualTo(before.size());
    assertThat(after.mode()).isEqualTo(before.mode());
    assertThat(after.inode()).isNotEqualTo(before.inode());
    assertThat(after.ctimeNanos()).isGreaterThan(before.ctimeNanos());
    assertThat(after.mtimeNanos()).isGreaterThan(before.mtimeNanos());
  }

  @Test
  void aChmodMovesTheChangeTimeButNeitherTheModificationTimeNorTheInode() throws IOException {
    files().writeDurably(p("f"), "x", 0755);
    FileMeta before = files().lstat(p("f")).orElseThrow();
    letAClockTickPass();

    files().chmod(p("f"), 0700);
    files().chmod(p("f"), 0755);

    FileMeta after = files().lstat(p("f")).orElseThrow();
    assertThat(after.mode()).isEqualTo(before.mode());
    assertThat(after.inode()).isEqualTo(before.inode());
    assertThat(after.mtimeNanos()).isEqualTo(before.mtimeNanos());
    assertThat(after.ctimeNanos()).isGreaterThan(before.ctimeNanos());
  }

  @Test
  void aChownMovesTheChangeTime() throws IOException {
    assumeThat(canChown()).as("the fixture may chown").isTrue();
    files().writeDurably(p("f"), "x", 0644);
    FileMeta before = files().lstat(p("f")).orElseThrow();
    letAClockTickPass();

    files().chown(p("f"), before.uid(), before.gid());

    FileMeta after = files().lstat(p("f")).orElseThrow();
    assertThat(after.inode()).isEqualTo(before.inode());
    assertThat(after.ctimeNanos()).isGreaterThan(before.ctimeNanos());
  }

  @Test
  void aRenameIntoPlaceKeepsTheInodeAndMovesItsChangeTime() throws IOException {
    files().writeDurably(p("staged"), "binary", 0755);
    files().writeDurably(p("installed"), "older", 0755);
    FileMeta before = files().lstat(p("staged")).orElseThrow();
    letAClockTickPass();

    files().renameDurably(p("staged"), p("installed"));

    FileMeta after = files().lstat(p("installed")).orElseThrow();
    assertThat(after.inode()).isEqualTo(before.inode());
    assertThat(after.mtimeNanos()).isEqualTo(before.mtimeNanos());
    assertThat(after.ctimeNanos()).isGreaterThan(before.ctimeNanos());
  }

  // ---------------------------------------------------------------- locks

  @Test
  void aSecondCallerGetsNoLockUntilTheFirstReleasesIt() throws IOException {
    Path lockFile = p(".lock");
    Optional<HostLock> first = files().tryLock(lockFile);
    assertThat(first).isPresent();
    assertThat(files().tryLock(lockFile)).isEmpty();
    first.get().close();
    Optional<HostLock> again = files().tryLock(lockFile);
    assertThat(again).isPresent();
    again.get().close();
  }

  @Test
  void aLockNamesTheProcessHoldingItUntilItIsReleased() throws IOException {
    Path lockFile = p(".lock");
    assertThat(files().lockHolder(lockFile)).as("no file, no holder").isEmpty();
    HostLock lock = files().tryLock(lockFile).orElseThrow();
    try {
      assertThat(files().lockHolder(lockFile)).hasValue(thisProcess());
    } finally {
      lock.close();
    }
    assertThat(files().lockHolder(lockFile)).isEmpty();
  }

  @Test
  void tryLockCreatesTheLockFileWithMode0600() throws IOException {
    Optional<HostLock> lock = files().tryLock(p(".lock"));
    try {
      FileMeta meta = files().lstat(p(".lock")).orElseThrow();
      assertThat(meta.type()).isEqualTo(FileType.REGULAR);
      assertThat(meta.mode()).isEqualTo(0600);
    } finally {
      lock.ifPresent(HostLock::close);
    }
  }

  // ---------------------------------------------------------------- bad input

  @Test
  void relativePathsAreRefused() {
    Path relative = Path.of("relative/path");
    assertThatThrownBy(() -> files().lstat(relative)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> files().read(relative)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> files().writeDurably(relative, "x", 0644))
        .isInstanceOf(IllegalArgumentException.class);
  }

  // ---------------------------------------------------------------- mounts

  private MountFixture requireMounts() {
    Optional<MountFixture> m = mounts();
    assumeThat(m).as("the fixture can mount").isPresent();
    return m.get();
  }

  @Test
  void renamingAcrossMountsFailsWithExdev() throws Exception {
    MountFixture m = requireMounts();
    files().createDirectories(p("mnt"), 0755);
    m.mountFilesystem(p("mnt"));
    files().writeDurably(p("f"), "x", 0644);
    failsWith(() -> files().renameDurably(p("f"), p("mnt/f")), Errno.EXDEV);
    assertThat(files().exists(p("f"))).isTrue();
  }

  @Test
  void aMountPointReportsTheMountedFilesystem() throws Exception {
    MountFixture m = requireMounts();
    files().createDirectories(p("mnt"), 0755);
    long before = files().lstat(p("mnt")).orElseThrow().mountId();
    m.mountFilesystem(p("mnt"));
    FileMeta mounted = files().lstat(p("mnt")).orElseThrow();
    assertThat(mounted.mountId()).isNotEqualTo(before);
    assertThat(mounted.device())
        .isNotEqualTo(files().lstat(scratch()).orElseThrow().device());
    files().writeDurably(p("mnt/f"), "x", 0644);
    assertThat(files().lstat(p("mnt/f")).orElseThrow().mountId()).isEqualTo(mounted.mountId());
  }

  @Test
  void removingAMountPointFailsWithEbusy() throws Exception {
    MountFixture m = requireMounts();
    files().createDirectories(p("mnt"), 0755);
    m.mountFilesystem(p("mnt"));
    failsWith(() -> files().removeDurably(p("mnt")), Errno.EBUSY);
  }

  @Test
  void aBindMountSharesTheDeviceButNotTheMountId() throws Exception {
    MountFixture m = requireMounts();
    files().createDirectories(p("src"), 0755);
    files().createDirectories(p("bind"), 0755);
    files().writeDurably(p("src/f"), "x", 0644);
    m.bindMount(p("src"), p("bind"));
    FileMeta original = files().lstat(p("src/f")).orElseThrow();
    FileMeta viaBind = files().lstat(p("bind/f")).orElseThrow();
    assertThat(viaBind.device()).isEqualTo(original.device());
    assertThat(viaBind.inode()).isEqualTo(original.inode());
    assertThat(viaBind.mountId()).isNotEqualTo(original.mountId());
  }
}
