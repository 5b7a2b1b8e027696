package dev.noneops.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.testing.SimulatedFiles;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

class AppliedConfigStoreTest {
  private final Path root = Path.of("/");
  private final HostFiles files = new SimulatedFiles().port();
  private final List<String> warnings = new ArrayList<>();
  private AppliedConfigStore store;
  private Path file;
  private Path sidecar;

  @BeforeEach
  void setUp() {
    HostPaths paths = new HostPaths(root, root.resolve("etc/systemd/system"));
    store = new AppliedConfigStore(files, paths, recordingLogger());
    file = root.resolve("etc/unbounded/agent/none-kube1-applied-config.json");
    sidecar = root.resolve("etc/unbounded/agent/none-kube1-applied-config.json.sha256");
  }

  /** A logger that records the warnings it is given. */
  private Logger recordingLogger() {
    return (Logger) Proxy.newProxyInstance(
        Logger.class.getClassLoader(), new Class<?>[] {Logger.class}, (proxy, method, args) -> {
          if (method.getName().equals("warn") && args != null) {
            warnings.add(String.valueOf(args[0]));
          }
          if (method.getReturnType() == boolean.class) {
            return true;
          }
          return method.getReturnType() == String.class ? "applied-config-test" : null;
        });
  }

  private static String sha256(byte[] bytes) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }

  @Test
  void isEmptyWhenNothingWasWritten() throws IOException {
    assertThat(store.read()).isEmpty();
  }

  @Test
  void writesTheAppliedNameUnderTheAgentDirectory() {
    assertThat(store.path()).isEqualTo(file);
    assertThat(store.sidecarPath()).isEqualTo(sidecar);
  }

  @Test
  void roundTripsAConfigurationWithItsDownloadOverrides() throws IOException {
    AgentConfig config = ConfigFixtures.execConfig();
    AgentConfig withDownloads = config.withDownloads(new AgentConfig.Downloads(
        new AgentConfig.Download("https://m", "", ""),
        AgentConfig.Download.NONE,
        AgentConfig.Download.NONE,
        AgentConfig.Download.NONE,
        AgentConfig.Download.NONE,
        AgentConfig.Download.NONE));

    store.write(withDownloads);

    assertThat(store.read()).contains(withDownloads);
    assertThat(warnings).isEmpty();
  }

  @Test
  void writesTheIndentedJsonMode0600InADirectory0750WithALowercaseHexSidecar() throws Exception {
    AgentConfig config = ConfigFixtures.tokenConfig();

    store.write(config);

    byte[] json = files.read(file);
    assertThat(json).isEqualTo(AgentConfigJson.applied(config));
    assertThat(new String(json, StandardCharsets.UTF_8))
        .startsWith("{\n  \"MachineName\": \"worker-1\",")
        .doesNotEndWith("\n");
    assertThat(files.readString(sidecar)).isEqualTo(sha256(json) + "\n");
    assertThat(files.lstat(file)).map(FileMeta::mode).contains(0600);
    assertThat(files.lstat(sidecar)).map(FileMeta::mode).contains(0600);
    assertThat(files.lstat(file.getParent())).map(FileMeta::mode).contains(0750);
    assertThat(files.list(file.getParent()))
        .containsExactlyInAnyOrder(
            "none-kube1-applied-config.json", "none-kube1-applied-config.json.sha256");
  }

  @Test
  void overwritingReplacesBothFiles() throws IOException {
    store.write(ConfigFixtures.tokenConfig());
    store.write(ConfigFixtures.execConfig());

    assertThat(store.read()).contains(ConfigFixtures.execConfig());
  }

  @Test
  void refusesAFileThatDoesNotMatchItsSidecar() throws Exception {
    store.write(ConfigFixtures.tokenConfig());
    byte[] tampered =
        files.readString(file).replace("worker-1", "worker-9").getBytes(StandardCharsets.UTF_8);
    files.writeDurably(file, tampered, 0600);
    String expected = files.readString(sidecar).trim();

    assertThatThrownBy(store::read)
        .isInstanceOfSatisfying(AppliedConfigChecksumException.class, e -> {
          assertThat(e.path()).isEqualTo(file);
          assertThat(e.expected()).isEqualTo(expected);
          assertThat(e.actual()).isEqualTo(sha256Unchecked(tampered));
        })
        .hasMessage("applied config " + file
            + " does not match its checksum sidecar: the sidecar says sha256 " + expected
            + ", the file has sha256 " + sha256Unchecked(tampered));
  }

  @Test
  void acceptsASidecarWithoutNewlineOrInUpperCase() throws Exception {
    store.write(ConfigFixtures.tokenConfig());
    files.writeDurably(sidecar, sha256(files.read(file)).toUpperCase(), 0600);

    assertThat(store.read()).contains(ConfigFixtures.tokenConfig());
  }

  @Test
  void returnsTheConfigurationWithAWarningWhenTheSidecarIsMissing() throws IOException {
    store.write(ConfigFixtures.tokenConfig());
    files.delete(sidecar);

    assertThat(store.read()).contains(ConfigFixtures.tokenConfig());
    assertThat(warnings)
        .containsExactly(
            "applied config has no checksum sidecar; using it unverified path={} sidecar={}");
  }

  @Test
  void aCrashAfterTheOldSidecarWasRemovedLeavesAReadableFileNotAChecksumError() throws IOException {
    store.write(ConfigFixtures.tokenConfig());
    // The first step of the next write: the old sidecar goes before the file is replaced.
    files.removeDurably(sidecar);
    files.writeDurably(file, AgentConfigJson.applied(ConfigFixtures.execConfig()), 0600);

    assertThat(store.read()).contains(ConfigFixtures.execConfig());
    assertThat(warnings).hasSize(1);
  }

  @Test
  void rejectsAnAppliedConfigThatIsNotAConfiguration() throws Exception {
    files.createDirectories(file.getParent(), 0750);
    byte[] json = "{\"Unknown\": 1}".getBytes(StandardCharsets.UTF_8);
    files.writeDurably(file, json, 0600);
    files.writeDurably(sidecar, sha256(json) + "\n", 0600);

    assertThatThrownBy(store::read)
        .isInstanceOf(InvalidConfigException.class)
        .hasMessageContaining("Unknown: unknown key");
  }

  @Test
  void removeDeletesBothFilesAndToleratesTheirAbsence() throws IOException {
    store.write(ConfigFixtures.tokenConfig());

    store.remove();
    store.remove();

    assertThat(files.exists(file)).isFalse();
    assertThat(files.exists(sidecar)).isFalse();
    assertThat(store.read()).isEmpty();
  }

  private static String sha256Unchecked(byte[] bytes) {
    try {
      return sha256(bytes);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
