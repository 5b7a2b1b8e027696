package dev.noneops.acceptance.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.CorruptStateException;
import dev.noneops.core.node.internal.files.SavedConfiguration;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The saved configuration is not trusted: an entry naming a path outside the shared paths the
 * node owns (or a path that is not normalised) makes the whole snapshot refused, naming the
 * entry, and nothing on the host changes.
 */
class SavedConfigurationTrustTest {
  private static final AgentConfig V1 = SimNode.config("1.31.2", "2.0.4", "blue");
  private static final AgentConfig V2 = SimNode.config("1.31.3", "2.1.1", "green");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String FOREIGN_ENTRY = "entry-99999.json";

  private SimNode lab;

  @BeforeEach
  void anUpgradeInFlight() throws IOException {
    lab = new SimNode();
    lab.bootstrap(V1);
    lab.publish(V2);
    lab.host.fs().seedFile(Path.of("/etc/passwd"), "root:x:0:0:root:/root:/bin/bash\n", 0644);
    lab.host.fs().seedFile(Path.of("/etc/shadow"), "root:*:19000:0:99999:7:::\n", 0640);
    lab.node(V2, Optional.of(V1)).upgrade();
    lab.host.crash();
  }

  static Stream<ObjectNode> entriesNamingWhatTheNodeDoesNotOwn() {
    return Stream.of(
        file("/etc/passwd"),
        file("/etc/systemd/system/../../passwd"),
        file("/etc/systemd/system/kubelet.service.d/./../../../passwd"),
        absent("/etc/shadow"),
        absent("/opt/unbounded/node/current"),
        symlink("/etc/resolv.conf", "/tmp/evil"),
        symlink("/etc/systemd/system/kubelet.service.d/../../../resolv.conf", "/tmp/evil"),
        file("etc/containerd/config.toml"));
  }

  @ParameterizedTest
  @MethodSource("entriesNamingWhatTheNodeDoesNotOwn")
  void recoveryRefusesASnapshotWithAnEntryOutsideTheNodesSharedPathsAndChangesNothing(
      ObjectNode entry) throws Exception {
    addEntry(entry);
    FileTreeSnapshot before = lab.host.snapshot();

    assertThatThrownBy(() -> lab.node(V1).recoverUpgrade(V1))
        .hasStackTraceContaining(CorruptStateException.class.getName())
        .hasStackTraceContaining(lab.layout.confsnap().resolve(FOREIGN_ENTRY).toString())
        .hasStackTraceContaining("'" + entry.get("path").asText() + "'");

    assertThat(lab.host.snapshot().diff(before)).isEmpty();
  }

  @Test
  void aSnapshotOfOnlyTheNodesSharedPathsIsStillRestored() throws Exception {
    addEntry(file(
        "/etc/systemd/system/kubelet.service.d/99-saved.conf", "[Service]\nEnvironment=SAVED=1\n"));

    lab.node(V1).recoverUpgrade(V1);

    assertThat(lab.exists(Path.of("/etc/systemd/system/kubelet.service.d/99-saved.conf")))
        .isTrue();
    assertThat(lab.exists(lab.layout.confsnap())).isFalse();
  }

  private static ObjectNode file(String path) {
    return file(path, "owned\n");
  }

  private static ObjectNode file(String path, String content) {
    ObjectNode n = entry(path, "FILE");
    n.put("mode", 0644);
    n.put("uid", 0);
    n.put("gid", 0);
    n.put("content", Base64.getEncoder().encodeToString(content.getBytes(StandardCharsets.UTF_8)));
    return n;
  }

  private static ObjectNode absent(String path) {
    return entry(path, "ABSENT");
  }

  private static ObjectNode symlink(String path, String target) {
    ObjectNode n = entry(path, "SYMLINK");
    n.put("target", target);
    return n;
  }

  private static ObjectNode entry(String path, String kind) {
    ObjectNode n = JSON.createObjectNode();
    n.put("schema", 1);
    n.put("path", path);
    n.put("kind", kind);
    return n;
  }

  /** Adds {@code entry} to the saved configuration with its digest in the marker, as a consistent snapshot would list it. */
  private void addEntry(ObjectNode entry) throws Exception {
    Path dir = lab.layout.confsnap();
    byte[] content = JSON.writeValueAsBytes(entry);
    lab.host.fs().seedFile(dir.resolve(FOREIGN_ENTRY), content, 0600);
    Path markerPath = dir.resolve(SavedConfiguration.MARKER);
    ObjectNode marker = (ObjectNode) JSON.readTree(lab.host.fs().read(markerPath));
    ((ObjectNode) marker.get("entries"))
        .put(
            FOREIGN_ENTRY,
            HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content)));
    lab.host.fs().seedFile(markerPath, JSON.writeValueAsBytes(marker), 0600);
  }
}
