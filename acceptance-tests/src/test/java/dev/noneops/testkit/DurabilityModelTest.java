package dev.noneops.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.files.HostFiles;
import dev.noneops.testkit.gate.SimulatedCrash;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The durability model of the design's section 6: only what was fsynced survives {@code crash()}. */
class DurabilityModelTest {
  private final SimulatedHost host = SimulatedHost.create();
  private final HostFiles files = host.ports().files();
  private final Path dir = Path.of("/var/lib/app");
  private final Path file = dir.resolve("state");

  DurabilityModelTest() throws IOException {
    host.fs().seedDirectory(dir, 0755);
  }

  private String content(Path p) throws IOException {
    return new String(host.fs().read(p), StandardCharsets.UTF_8);
  }

  @Test
  void aDurableWriteSurvivesACrash() throws IOException {
    files.writeDurably(file, "v1", 0640);
    host.crash();
    assertThat(content(file)).isEqualTo("v1");
    assertThat(files.lstat(file).orElseThrow().mode()).isEqualTo(0640);
  }

  @Test
  void aNewFileWrittenWithoutFsyncIsLost() throws IOException {
    host.fs().writeVolatile(file, "unsynced".getBytes(StandardCharsets.UTF_8), 0644);
    assertThat(content(file)).isEqualTo("unsynced");
    host.crash();
    assertThat(files.exists(file)).isFalse();
  }

  @Test
  void anOverwriteWithoutFsyncFallsBackToTheOldContent() throws IOException {
    files.writeDurably(file, "old", 0644);
    host.fs().writeVolatile(file, "new".getBytes(StandardCharsets.UTF_8), 0644);
    host.crash();
    assertThat(content(file)).isEqualTo("old");
  }

  @Test
  void fsyncOfANewFileKeepsItsDataAndItsNameButNotOtherEntries() throws IOException {
    host.fs().writeVolatile(file, "synced".getBytes(StandardCharsets.UTF_8), 0644);
    host.fs().fsync(file);
    host.fs().writeVolatile(dir.resolve("other"), "x".getBytes(StandardCharsets.UTF_8), 0644);
    host.crash();
    assertThat(content(file)).isEqualTo("synced");
    assertThat(files.exists(dir.resolve("other"))).isFalse();
  }

  @Test
  void aRenameWithoutFsyncOfTheDirectoryIsLost() throws IOException {
    files.writeDurably(dir.resolve("a"), "A", 0644);
    host.fs().rename(dir.resolve("a"), dir.resolve("b"));
    host.crash();
    assertThat(files.list(dir)).containsExactly("a");
    host.fs().rename(dir.resolve("a"), dir.resolve("b"));
    files.syncDirectory(dir);
    host.crash();
    assertThat(files.list(dir)).containsExactly("b");
  }

  @Test
  void aDeleteIsDurableOnlyAfterSyncDirectory() throws IOException {
    files.writeDurably(file, "x", 0644);
    files.delete(file);
    assertThat(files.exists(file)).isFalse();
    host.crash();
    assertThat(files.exists(file)).isTrue();
    files.delete(file);
    files.syncDirectory(dir);
    host.crash();
    assertThat(files.exists(file)).isFalse();
  }

  @Test
  void removeDurablyIsDurable() throws IOException {
    files.writeDurably(file, "x", 0644);
    files.removeDurably(file);
    host.crash();
    assertThat(files.exists(file)).isFalse();
  }

  @Test
  void aDirectoryCreatedDurablyComesBackEmptyWhenItsEntriesWereNotSynced() throws IOException {
    files.createDirectories(dir.resolve("x/y"), 0700);
    host.fs().writeVolatile(dir.resolve("x/y/f"), new byte[] {1}, 0644);
    host.crash();
    assertThat(files.lstat(dir.resolve("x/y")).orElseThrow().mode()).isEqualTo(0700);
    assertThat(files.list(dir.resolve("x/y"))).isEmpty();
  }

  @Test
  void aChmodIsLostByACrashEvenAfterAnFsyncOfItsDirectoryAndKeptByAnFsyncOfTheFile()
      throws IOException {
    files.writeDurably(file, "x", 0644);
    files.chmod(file, 0600);
    files.syncDirectory(dir);
    host.crash();
    assertThat(files.lstat(file).orElseThrow().mode()).isEqualTo(0644);
    files.chmod(file, 0600);
    host.fs().fsync(file);
    host.crash();
    assertThat(files.lstat(file).orElseThrow().mode()).isEqualTo(0600);
  }

  @Test
  void aChownIsLostByACrashEvenAfterAnFsyncOfItsDirectoryAndKeptByAnFsyncOfTheFile()
      throws IOException {
    files.writeDurably(file, "x", 0644);
    files.chown(file, 1234, 5678);
    files.syncDirectory(dir);
    host.crash();
    assertThat(files.lstat(file).orElseThrow())
        .satisfies(m -> assertThat(List.of(m.uid(), m.gid())).containsExactly(0, 0));
    files.chown(file, 1234, 5678);
    host.fs().fsync(file);
    host.crash();
    assertThat(files.lstat(file).orElseThrow())
        .satisfies(m -> assertThat(List.of(m.uid(), m.gid())).containsExactly(1234, 5678));
  }

  @Test
  void aRenameInAnFsyncedDirectoryKeepsTheFilesModeAndOwner() throws IOException {
    host.fs().seedFile(dir.resolve("staged"), "x", 0755);
    host.fs().seedOwner(dir.resolve("staged"), 1234, 5678);
    files.renameDurably(dir.resolve("staged"), file);
    host.crash();
    assertThat(files.lstat(file).orElseThrow()).satisfies(m -> {
      assertThat(m.mode()).isEqualTo(0755);
      assertThat(List.of(m.uid(), m.gid())).containsExactly(1234, 5678);
    });
  }

  /** A durable write has five crash points: start, before write, before fsync, before rename, before the dir fsync. */
  @ParameterizedTest(name = "crash point {0}")
  @ValueSource(ints = {1, 2, 3, 4, 5})
  void aCrashInsideADurableWriteKeepsTheOldContentAndMayLeaveTheTempFile(int point)
      throws IOException {
    files.writeDurably(file, "old", 0644);
    host.faults().crashAtCrashPoint(point);
    assertThatThrownBy(() -> files.writeDurably(file, "new", 0600))
        .isInstanceOf(SimulatedCrash.class);
    assertThat(host.halted()).isTrue();
    host.crash();
    assertThat(content(file)).isEqualTo("old");
    if (point >= 4) {
      assertThat(host.tempFiles(dir)).singleElement().satisfies(temp -> {
        assertThat(temp).startsWith(dir + "/" + HostFiles.TEMP_PREFIX);
        assertThat(content(Path.of(temp))).isEqualTo("new");
      });
    } else {
      assertThat(host.tempFiles(dir)).isEmpty();
    }
  }

  @Test
  void aCrashAfterTheLastStepOfADurableWriteKeepsTheNewContent() throws IOException {
    files.writeDurably(file, "old", 0644);
    files.writeDurably(file, "new", 0644);
    host.faults().crashAtCrashPoint(1);
    assertThatThrownBy(() -> files.writeDurably(dir.resolve("next"), "x", 0644))
        .isInstanceOf(SimulatedCrash.class);
    host.crash();
    assertThat(content(file)).isEqualTo("new");
    assertThat(host.tempFiles(dir)).isEmpty();
  }

  @ParameterizedTest(name = "crash point {0}")
  @ValueSource(ints = {1, 2, 3})
  void aCrashInsideASymlinkFlipLeavesTheOldTarget(int point) throws IOException {
    Path link = dir.resolve("current");
    files.symlinkDurably(link, "v1");
    host.faults().crashAtCrashPoint(point);
    assertThatThrownBy(() -> files.symlinkDurably(link, "v2")).isInstanceOf(SimulatedCrash.class);
    host.crash();
    assertThat(files.readLink(link)).isEqualTo("v1");
  }

  @Test
  void afterACrashFiredEveryCallFailsUntilTheHostReboots() throws IOException {
    host.faults().crashAtMutatingCall(1);
    assertThatThrownBy(() -> files.writeDurably(file, "x", 0644))
        .isInstanceOf(SimulatedCrash.class);
    assertThatThrownBy(() -> files.read(file)).isInstanceOf(SimulatedCrash.class);
    assertThatThrownBy(() -> host.ports().systemd().status("kubelet.service"))
        .isInstanceOf(SimulatedCrash.class);
    host.crash();
    assertThat(files.exists(file)).isFalse();
  }

  @Test
  void aTmpfsIsEmptyAfterACrashButStillMounted() throws IOException {
    files.createDirectories(Path.of("/run/containerd"), 0711);
    files.writeDurably(Path.of("/run/containerd/state"), "x", 0644);
    long mountId = files.lstat(Path.of("/run")).orElseThrow().mountId();
    host.crash();
    assertThat(files.list(Path.of("/run"))).isEmpty();
    assertThat(files.lstat(Path.of("/run")).orElseThrow().mountId()).isEqualTo(mountId);
  }

  @Test
  void aCrashReleasesLocksAndChangesTheBootId() throws IOException {
    Path lock = dir.resolve(".lock");
    assertThat(files.tryLock(lock)).isPresent();
    String boot = host.bootId();
    host.crash();
    assertThat(host.bootId()).isNotEqualTo(boot);
    assertThat(files.tryLock(lock)).isPresent();
  }

  @Test
  void crashPointsAreCountedForEveryMutatingCallAndStep() throws IOException {
    long before = host.journal().crashPointCount();
    files.writeDurably(file, "x", 0644);
    files.symlinkDurably(dir.resolve("l"), "x");
    files.read(file);
    assertThat(host.journal().crashPointCount() - before).isEqualTo(5 + 3);
  }
}
