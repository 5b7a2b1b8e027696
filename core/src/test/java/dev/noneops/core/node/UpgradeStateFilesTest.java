package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.internal.files.SavedConfiguration;
import dev.noneops.core.node.internal.files.SavedFile;
import dev.noneops.core.node.internal.state.RollbackHistory;
import dev.noneops.core.node.internal.state.RolledBackUpgrade;
import dev.noneops.core.node.internal.state.UpgradeJournal;
import dev.noneops.core.node.internal.state.UpgradeRecord;
import dev.noneops.core.node.internal.state.UpgradeRecord.LocalDnsInterface;
import dev.noneops.core.node.internal.task.NodeLock;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import dev.noneops.testkit.gate.SimulatedCrash;
import dev.noneops.testkit.process.SimProcesses;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The upgrade's durable state files on their own: the saved configuration, the journal, the rollback history and the lock. */
class UpgradeStateFilesTest {
  private static final Path CONFIG = Path.of("/etc/containerd/config.toml");
  private static final Path LINK = Path.of("/opt/cni/bin/bridge");
  private static final Path SECRET = Path.of("/var/lib/kubelet/kubeconfig");
  private static final Path NEW_DIR = Path.of("/etc/unbounded/localdns");
  private static final Path NEW_FILE = NEW_DIR.resolve("created-by-upgrade.conf");

  private SimulatedHost host;
  private HostFiles files;
  private final Layout layout = Layout.defaultLayout();

  @BeforeEach
  void host() throws IOException {
    host = SimulatedHost.create();
    files = host.ports().files();
    host.fs().seedDirectory(layout.root(), 0755);
    host.fs().seedFile(CONFIG, "version = 2\n", 0640);
    host.fs().seedOwner(CONFIG, 0, 7);
    host.fs().seedSymlink(LINK, "/opt/unbounded/node/current/libexec/cni/bridge");
    host.fs().seedFile(SECRET, "token: old\n", 0600);
  }

  private SavedConfiguration saved() throws IOException {
    SavedConfiguration confsnap = new SavedConfiguration(files, layout, HostPaths.realHost());
    confsnap.save(List.of(CONFIG, LINK, SECRET, NEW_DIR.getParent(), NEW_DIR, NEW_FILE));
    return confsnap;
  }

  private void upgradeWritesEverything() throws IOException {
    files.writeDurably(CONFIG, "version = 3\n", 0644);
    files.symlinkDurably(LINK, "/elsewhere/bridge");
    files.removeDurably(SECRET);
    files.createDirectories(NEW_DIR, 0755);
    files.writeDurably(NEW_FILE, "new\n", 0644);
  }

  @Test
  void restorePutsBackContentModeOwnerLinksAndAbsenceAndIsIdempotent() throws IOException {
    FileTreeSnapshot before = host.snapshot();
    SavedConfiguration confsnap = saved();
    assertThat(confsnap.state()).isEqualTo(SavedConfiguration.State.COMPLETE);
    upgradeWritesEverything();

    assertThat(confsnap.restore())
        .containsExactlyInAnyOrder(CONFIG, LINK, SECRET, NEW_DIR.getParent(), NEW_DIR, NEW_FILE);
    confsnap.drop();

    assertThat(host.snapshot().diff(before)).isEmpty();
    assertThat(host.snapshot().entry(CONFIG.toString()).gid()).isEqualTo(7);
    assertThat(new SavedConfiguration(files, layout, HostPaths.realHost()).state())
        .isEqualTo(SavedConfiguration.State.ABSENT);
  }

  @Test
  void aSecondRestoreChangesNothing() throws IOException {
    SavedConfiguration confsnap = saved();
    upgradeWritesEverything();
    confsnap.restore();
    FileTreeSnapshot once = host.snapshot();
    long mutating = host.journal().mutatingCallCount();

    assertThat(confsnap.restore()).isEmpty();

    assertThat(host.journal().mutatingCallCount()).isEqualTo(mutating);
    assertThat(host.snapshot().diff(once)).isEmpty();
  }

  @Test
  void aCrashWhileSavingNeverLeavesASnapshotThatLooksComplete() throws IOException {
    for (long k = 1; ; k++) {
      host();
      host.faults().crashAtCrashPoint(k);
      try {
        saved();
        break;
      } catch (SimulatedCrash crash) {
        host.crash();
      }
      SavedConfiguration confsnap = new SavedConfiguration(files, layout, HostPaths.realHost());
      assertThat(confsnap.state())
          .as("crash point " + k)
          .isNotEqualTo(SavedConfiguration.State.COMPLETE);
      confsnap.drop();
      assertThat(confsnap.state()).isEqualTo(SavedConfiguration.State.ABSENT);
    }
  }

  @Test
  void dropRemovesTheMarkerFirst() throws IOException {
    SavedConfiguration confsnap = saved();
    host.faults().crashAtMutatingCall(2);
    assertThatThrownBy(confsnap::drop).isInstanceOf(SimulatedCrash.class);
    host.crash();
    assertThat(new SavedConfiguration(files, layout, HostPaths.realHost()).state())
        .isEqualTo(SavedConfiguration.State.INCOMPLETE);
  }

  @Test
  void aDamagedEntryIsAnErrorNamingTheFile() throws IOException {
    SavedConfiguration confsnap = saved();
    Path entry = layout.confsnap().resolve("entry-00000.json");
    host.fs().seedFile(entry, "{\"schema\":1}", 0600);

    assertThatThrownBy(confsnap::restore)
        .isInstanceOf(CorruptStateException.class)
        .hasMessageContaining(entry.toString())
        .hasMessageContaining("SHA-256");
  }

  @Test
  void savingOverAnExistingSnapshotIsRefused() throws IOException {
    SavedConfiguration confsnap = saved();
    assertThatThrownBy(() -> confsnap.save(List.of(CONFIG))).hasMessageContaining("already exists");
    assertThat(confsnap.read())
        .extracting(SavedFile::path)
        .containsExactly(CONFIG, NEW_DIR.getParent(), NEW_DIR, NEW_FILE, LINK, SECRET);
  }

  @Test
  void savingAPathOutsideTheNodesSharedPathsIsRefusedAndSavesNothing() throws IOException {
    host.fs().seedFile(Path.of("/etc/passwd"), "root:x:0:0::/root:/bin/sh\n", 0644);
    SavedConfiguration confsnap = new SavedConfiguration(files, layout, HostPaths.realHost());

    assertThatThrownBy(() -> confsnap.save(List.of(CONFIG, Path.of("/etc/passwd"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'/etc/passwd' is not one of the shared paths the node owns");
    assertThat(confsnap.state()).isEqualTo(SavedConfiguration.State.ABSENT);
  }

  @Test
  void theJournalIsWrittenDurablyAndReadBack() throws IOException {
    UpgradeJournal journal = new UpgradeJournal(files, layout);
    UpgradeRecord record = new UpgradeRecord(
        "1.31.2-aaaa", "1.31.3-bbbb", "c".repeat(64), Instant.parse("2026-01-01T00:00:00Z"));
    journal.write(record);
    host.crash();

    assertThat(new UpgradeJournal(files, layout).read()).contains(record);
    journal.remove();
    host.crash();
    assertThat(journal.read()).isEmpty();
  }

  @Test
  void theJournalRecordsTheTargetsLocalDnsInterfaceAndReadsOneWithoutItAsUnknown()
      throws IOException {
    UpgradeJournal journal = new UpgradeJournal(files, layout);
    UpgradeRecord record = new UpgradeRecord(
        "1.31.2-aaaa",
        "1.31.3-bbbb",
        "c".repeat(64),
        Instant.parse("2026-01-01T00:00:00Z"),
        Optional.of(new LocalDnsInterface("nodedns1", "169.254.20.10")));
    journal.write(record);
    assertThat(journal.read()).contains(record);

    host.fs()
        .seedFile(
            layout.journal(),
            "{\"schema\":1,\"previousVersion\":\"1.31.2-aaaa\",\"targetVersion\":\"1.31.3-bbbb\","
                + "\"configDigest\":\"d\",\"startedAt\":\"2026-01-01T00:00:00Z\"}",
            0600);
    assertThat(journal.read())
        .get()
        .extracting(UpgradeRecord::targetLocalDns)
        .isEqualTo(Optional.empty());

    host.fs()
        .seedFile(
            layout.journal(),
            "{\"schema\":1,\"previousVersion\":\"1.31.2-aaaa\",\"targetVersion\":\"1.31.3-bbbb\","
                + "\"configDigest\":\"d\",\"startedAt\":\"2026-01-01T00:00:00Z\",\"targetLocalDns\":{\"interfaceName\":\"eth0 up\",\"bindAddress\":\"x\"}}",
            0600);
    assertThatThrownBy(journal::read)
        .isInstanceOf(CorruptStateException.class)
        .hasMessageContaining("not a Linux interface name: 'eth0 up'");
  }

  @Test
  void theJournalRecordsItsOwnerAndReadsOneWithoutItAsUnknown() throws IOException {
    UpgradeJournal journal = new UpgradeJournal(files, layout);
    UpgradeRecord record = new UpgradeRecord(
        "1.31.2-aaaa",
        "1.31.3-bbbb",
        "c".repeat(64),
        Instant.parse("2026-01-01T00:00:00Z"),
        Optional.empty(),
        Optional.of(new UpgradeRecord.Owner(4242, 987654, "6f1c2a0e-4b8d-4f57-9a3e-2d5c7b1e9f04")));
    journal.write(record);
    assertThat(journal.read()).contains(record);

    host.fs()
        .seedFile(
            layout.journal(),
            "{\"schema\":1,\"previousVersion\":\"1.31.2-aaaa\",\"targetVersion\":\"1.31.3-bbbb\","
                + "\"configDigest\":\"d\",\"startedAt\":\"2026-01-01T00:00:00Z\"}",
            0600);
    assertThat(journal.read()).get().extracting(UpgradeRecord::owner).isEqualTo(Optional.empty());

    host.fs()
        .seedFile(
            layout.journal(),
            "{\"schema\":1,\"previousVersion\":\"1.31.2-aaaa\",\"targetVersion\":\"1.31.3-bbbb\","
                + "\"configDigest\":\"d\",\"startedAt\":\"2026-01-01T00:00:00Z\","
                + "\"owner\":{\"pid\":\"4242\",\"startTime\":1,\"bootId\":\"b\"}}",
            0600);
    assertThatThrownBy(journal::read)
        .isInstanceOf(CorruptStateException.class)
        .hasMessageContaining("field 'owner.pid' missing or not an integer");
  }

  @Test
  void aCorruptJournalIsAnErrorNamingTheFileNeverIgnored() throws IOException {
    UpgradeJournal journal = new UpgradeJournal(files, layout);
    host.fs().seedFile(layout.journal(), "{\"schema\":1,\"previousVersion\":\"../etc\"", 0600);
    assertThatThrownBy(journal::read)
        .isInstanceOf(CorruptStateException.class)
        .hasMessageContaining("upgrade journal " + layout.journal() + " is corrupt")
        .hasMessageContaining("not JSON");

    host.fs()
        .seedFile(
            layout.journal(),
            "{\"schema\":1,\"previousVersion\":\"../etc\",\"targetVersion\":\"v\",\"configDigest\":\"d\",\"startedAt\":\"2026-01-01T00:00:00Z\"}",
            0600);
    assertThatThrownBy(journal::read)
        .isInstanceOf(CorruptStateException.class)
        .hasMessageContaining("not a safe version name: '../etc'");

    host.fs().seedFile(layout.journal(), "{\"schema\":9}", 0600);
    assertThatThrownBy(journal::read)
        .hasMessageContaining("schema 9 is not the supported schema 1");
  }

  @Test
  void theRollbackHistoryRemembersAndForgetsTheSameUpgrade() throws IOException {
    RollbackHistory history = new RollbackHistory(files, layout);
    RolledBackUpgrade rollback = new RolledBackUpgrade(
        "1.31.3-bbbb", "d1", Instant.parse("2026-01-01T00:00:00Z"), "kubelet never ready");
    history.remember(rollback);
    history.remember(rollback);

    assertThat(history.entries()).containsExactly(rollback);
    assertThat(history.find("1.31.3-bbbb", "d1")).contains(rollback);
    assertThat(history.find("1.31.3-bbbb", "d2"))
        .as("another configuration is another upgrade")
        .isEmpty();
    history.forget("1.31.3-bbbb", "d1");
    assertThat(files.exists(history.path())).isFalse();
  }

  @Test
  void theLockRefusesASecondProcessAndIsReentrantWithinOne() throws IOException {
    NodeLock mine = new NodeLock(files, layout);
    NodeLock other = new NodeLock(files, layout);
    try (NodeLock.Hold outer = mine.acquire("upgrade");
        NodeLock.Hold inner = mine.acquire("configure")) {
      assertThatThrownBy(() -> other.acquire("prune versions"))
          .isInstanceOf(NodeBusyException.class)
          .hasMessage("node busy: cannot prune versions because pid " + SimProcesses.AGENT.pid()
              + " holds " + layout.lock()
              + "; nothing was changed, retry when it has finished");
    }
    try (NodeLock.Hold now = other.acquire("prune versions")) {
      assertThat(other.isHeld()).isTrue();
    }
  }

  @Test
  void aCrashReleasesTheLock() throws IOException {
    new NodeLock(files, layout).acquire("upgrade");
    host.crash();
    try (NodeLock.Hold hold = new NodeLock(files, layout).acquire("recover-upgrade")) {
      assertThat(hold).isNotNull();
    }
  }
}
