package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.node.internal.files.OwnedEntry;
import dev.noneops.core.node.internal.files.OwnershipRecord;
import dev.noneops.core.node.internal.files.OwnershipStore;
import dev.noneops.core.node.internal.files.SharedFileWriter;
import dev.noneops.core.testing.SimulatedFiles;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class SharedFileWriterTest {
  private static final Path RECORD = Path.of("/etc/unbounded/agent/owned.json");
  private static final Path CONFIG = Path.of("/etc/containerd/config.toml");

  private final SimulatedFiles host = new SimulatedFiles();
  private final HostFiles files = host.port();
  private final OwnershipStore store = new OwnershipStore(files, RECORD);

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void writesRecordsAndThenDetectsNoChange() throws IOException {
    files.createDirectories(Path.of("/etc"), 0755);
    SharedFileWriter writer = new SharedFileWriter(files, store);
    assertThat(writer.write(CONFIG, bytes("version = 2\n"), 0644)).isTrue();
    TreeMap<String, String> stamps = host.stamps();

    SharedFileWriter again = new SharedFileWriter(files, store);
    assertThat(again.write(CONFIG, bytes("version = 2\n"), 0644)).isFalse();
    assertThat(host.stamps())
        .as("an unchanged file writes nothing, not even the record")
        .isEqualTo(stamps);

    OwnershipRecord record = store.load();
    assertThat(record.get(CONFIG))
        .contains(new OwnedEntry(
            CONFIG, OwnedEntry.Kind.FILE, SharedFileWriter.sha256(bytes("version = 2\n")), 0644));
    assertThat(record.get(Path.of("/etc/containerd")))
        .contains(new OwnedEntry(Path.of("/etc/containerd"), OwnedEntry.Kind.DIRECTORY, "", 0755));
    assertThat(record.owns(Path.of("/etc")))
        .as("a directory that already existed is not ours")
        .isFalse();
  }

  @Test
  void aDifferentContentOrModeIsRewritten() throws IOException {
    SharedFileWriter writer = new SharedFileWriter(files, store);
    writer.write(CONFIG, bytes("a"), 0644);
    assertThat(writer.write(CONFIG, bytes("b"), 0644)).isTrue();
    assertThat(writer.write(CONFIG, bytes("b"), 0600)).isTrue();
    assertThat(host.tree()).containsEntry(CONFIG.toString(), "file 0600 b");
    assertThat(store.load().get(CONFIG).orElseThrow().fingerprint())
        .isEqualTo(SharedFileWriter.sha256(bytes("b")));
  }

  @Test
  void linksAreRecordedWithTheirTargetAndADirectoryInTheWayIsAnError() throws IOException {
    SharedFileWriter writer = new SharedFileWriter(files, store);
    Path link = Path.of("/opt/cni/bin/bridge");
    assertThat(writer.link(link, "/opt/unbounded/node/current/libexec/cni/bridge"))
        .isTrue();
    assertThat(writer.link(link, "/opt/unbounded/node/current/libexec/cni/bridge"))
        .isFalse();
    assertThat(store.load().get(link).orElseThrow().fingerprint())
        .isEqualTo("/opt/unbounded/node/current/libexec/cni/bridge");

    Path dir = Path.of("/opt/cni/bin/portmap");
    files.createDirectories(dir, 0755);
    assertThatThrownBy(() -> writer.link(dir, "/x"))
        .hasMessageContaining("/opt/cni/bin/portmap")
        .hasMessageContaining("in the way");
  }

  @Test
  void aPluginFileOfTheHostsWhereALinkGoesIsTakenOverAndComesBackWhenTheLinkGoes()
      throws IOException {
    SharedFileWriter writer = new SharedFileWriter(files, store);
    Path file = Path.of("/opt/cni/bin/portmap");
    files.createDirectories(file.getParent(), 0755);
    files.writeDurably(file, bytes("a plugin installed by someone else"), 0755);

    assertThat(writer.link(file, "/opt/unbounded/node/current/libexec/cni/portmap"))
        .isTrue();
    assertThat(writer.takenOver()).containsExactly(file);
    assertThat(writer.removeOwned(file)).isTrue();

    assertThat(files.read(file)).isEqualTo(bytes("a plugin installed by someone else"));
  }

  @Test
  void aLinkSomethingElseReplacedIsDisownedAndLeftUntilItIsGone() throws IOException {
    Path link = Path.of("/opt/cni/bin/host-local");
    String target = "/opt/unbounded/node/current/libexec/cni/host-local";
    new SharedFileWriter(files, store).link(link, target);
    files.removeDurably(link);
    files.writeDurably(link, bytes("an installer's host-local"), 0755);

    SharedFileWriter writer = new SharedFileWriter(files, store);
    assertThat(writer.link(link, target)).isFalse();
    SharedFileWriter again = new SharedFileWriter(files, store);
    assertThat(again.link(link, target)).isFalse();

    assertThat(writer.disowned()).containsExactly(link);
    assertThat(again.disowned()).as("said once").isEmpty();
    assertThat(files.read(link)).isEqualTo(bytes("an installer's host-local"));
    assertThat(store.load().owns(link)).isFalse();
    assertThat(store.disowned()).containsExactly(new OwnershipStore.Disowned(link, "regular file"));

    files.removeDurably(link);
    assertThat(new SharedFileWriter(files, store).link(link, target)).isTrue();
    assertThat(files.readLink(link)).isEqualTo(target);
    assertThat(store.load().owns(link)).isTrue();
    assertThat(store.disowned()).isEmpty();
  }

  @Test
  void removingALinkSomethingElseReplacedDisownsItAndLeavesIt() throws IOException {
    Path link = Path.of("/opt/cni/bin/portmap");
    SharedFileWriter writer = new SharedFileWriter(files, store);
    writer.link(link, "/opt/unbounded/node/current/libexec/cni/portmap");
    files.removeDurably(link);
    files.writeDurably(link, bytes("an installer's portmap"), 0755);

    assertThat(writer.removeOwned(link)).isFalse();

    assertThat(files.read(link)).isEqualTo(bytes("an installer's portmap"));
    assertThat(writer.disowned()).containsExactly(link);
    assertThat(store.disowned()).extracting(OwnershipStore.Disowned::path).containsExactly(link);
  }

  @Test
  void aTakeOverACrashCutBeforeTheLinkWasWrittenGoesOnRatherThanDisowning() throws IOException {
    Path file = Path.of("/opt/cni/bin/portmap");
    String target = "/opt/unbounded/node/current/libexec/cni/portmap";
    files.createDirectories(file.getParent(), 0755);
    files.writeDurably(file, bytes("the host's portmap"), 0755);
    SharedFileWriter.originalsBeside(files, store).save(file, files.lstat(file).orElseThrow());
    store.save(
        OwnershipRecord.EMPTY.with(new OwnedEntry(file, OwnedEntry.Kind.SYMLINK, target, 0)));

    SharedFileWriter writer = new SharedFileWriter(files, store);

    assertThat(writer.link(file, target)).isTrue();
    assertThat(writer.disowned()).isEmpty();
    assertThat(writer.removeOwned(file)).isTrue();
    assertThat(files.read(file)).isEqualTo(bytes("the host's portmap"));
  }

  @Test
  void removeOwnedRemovesOnlyWhatIsStillOursAndForgetsIt() throws IOException {
    SharedFileWriter writer = new SharedFileWriter(files, store);
    Path dropIn = Path.of("/etc/containerd/conf.d/99-nvidia-runtime.toml");
    writer.write(dropIn, bytes("ours"), 0644);
    Path edited = Path.of("/etc/containerd/conf.d/10-edited.toml");
    writer.write(edited, bytes("ours"), 0644);
    files.writeDurably(edited, bytes("changed by an operator"), 0644);

    assertThat(writer.removeOwned(dropIn)).isTrue();
    assertThat(writer.removeOwned(edited)).isFalse();
    assertThat(writer.removeOwned(Path.of("/etc/never-written"))).isFalse();

    assertThat(files.exists(dropIn)).isFalse();
    assertThat(host.tree()).containsEntry(edited.toString(), "file 0644 changed by an operator");
    assertThat(store.load().owns(dropIn)).isFalse();
    assertThat(store.load().owns(edited)).isFalse();
  }

  @Test
  void theRecordRoundTripsThroughJson() throws IOException {
    OwnershipRecord record = OwnershipRecord.of(java.util.List.of(
        new OwnedEntry(CONFIG, OwnedEntry.Kind.FILE, SharedFileWriter.sha256(bytes("x")), 0644),
        new OwnedEntry(Path.of("/opt/cni/bin/bridge"), OwnedEntry.Kind.SYMLINK, "/t", 0),
        new OwnedEntry(Path.of("/etc/kubernetes/manifests"), OwnedEntry.Kind.DIRECTORY, "", 0700)));
    store.save(record);
    assertThat(store.load()).isEqualTo(record);
    assertThat(host.tree())
        .hasEntrySatisfying(RECORD.toString(), v -> assertThat(v).startsWith("file 0600 "));
  }

  @Test
  void anUnreadableRecordIsAnErrorNamingIt() throws IOException {
    files.createDirectories(RECORD.getParent(), 0750);
    files.writeDurably(RECORD, bytes("{\"format\": 99}"), 0600);
    assertThatThrownBy(store::load)
        .hasMessageContaining(RECORD.toString())
        .hasMessageContaining("unknown format");
  }
}
