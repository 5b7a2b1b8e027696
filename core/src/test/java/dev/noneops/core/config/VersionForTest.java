package dev.noneops.core.config;

import static dev.noneops.core.config.ConfigFixtures.config;
import static dev.noneops.core.config.ConfigFixtures.execTree;
import static dev.noneops.core.config.ConfigFixtures.tokenTree;
import static dev.noneops.core.config.ConfigFixtures.with;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.noneops.core.layout.VersionNames;
import dev.noneops.ports.host.HostInfo;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.NumericChars;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class VersionForTest {
  private static final HostInfo HOST =
      new HostInfo("amd64", "6.8.0", "node-a", List.of(), false, List.of("192.168.1.1"));

  private static VersionInputs inputs(
      String arch, TreeMap<String, VersionInputs.DownloadOrigin> origins) {
    return new VersionInputs(
        new ComponentVersions("1.31.2", "2.0.4", "1.1.12", "1.5.1", "1.31.0", "1.11.3"),
        arch,
        origins);
  }

  private static final VersionInputs BASE = inputs("amd64", new TreeMap<>());

  private static String nameOf(ObjectNode tree, HostInfo host) {
    return VersionFor.of(config(tree).normalized(), host.arch());
  }

  private static String nameOf(ObjectNode tree) {
    return nameOf(tree, HOST);
  }

  @Test
  void theNameOfAKnownSetOfInputsNeverChangesSoNodesKeepTheirInstalledVersions() {
    VersionInputs inputs = new VersionInputs(
        new ComponentVersions("1.31.4", "1.7.22", "1.1.12", "1.5.1", "1.31.0", "1.11.3"),
        "amd64",
        new TreeMap<>(),
        new TreeMap<>(Map.of("Containerd", "ab".repeat(32))));

    assertThat(VersionFor.of(inputs)).isEqualTo("1.31.4-029431f7fd6d");
  }

  @Test
  void isTheKubernetesVersionAndATwelveCharacterDigest() {
    assertThat(VersionFor.of(BASE)).matches("1\\.31\\.2-[0-9a-f]{12}");
  }

  @Test
  void sameInputsGiveTheSameName() {
    assertThat(VersionFor.of(inputs("amd64", new TreeMap<>()))).isEqualTo(VersionFor.of(BASE));
    assertThat(nameOf(tokenTree())).isEqualTo(nameOf(tokenTree()));
  }

  @Test
  void everyBinaryRelevantInputGivesANewName() {
    String base = VersionFor.of(BASE);
    List<VersionInputs> changed = List.of(
        new VersionInputs(
            new ComponentVersions("1.31.3", "2.0.4", "1.1.12", "1.5.1", "1.31.0", "1.11.3"),
            "amd64",
            new TreeMap<>()),
        new VersionInputs(
            new ComponentVersions("1.31.2", "2.0.5", "1.1.12", "1.5.1", "1.31.0", "1.11.3"),
            "amd64",
            new TreeMap<>()),
        new VersionInputs(
            new ComponentVersions("1.31.2", "2.0.4", "1.1.13", "1.5.1", "1.31.0", "1.11.3"),
            "amd64",
            new TreeMap<>()),
        new VersionInputs(
            new ComponentVersions("1.31.2", "2.0.4", "1.1.12", "1.5.2", "1.31.0", "1.11.3"),
            "amd64",
            new TreeMap<>()),
        new VersionInputs(
            new ComponentVersions("1.31.2", "2.0.4", "1.1.12", "1.5.1", "1.31.1", "1.11.3"),
            "amd64",
            new TreeMap<>()),
        new VersionInputs(
            new ComponentVersions("1.31.2", "2.0.4", "1.1.12", "1.5.1", "1.31.0", "1.11.4"),
            "amd64",
            new TreeMap<>()),
        inputs("arm64", new TreeMap<>()),
        inputs("amd64", origin("Containerd", "https://mirror/c", "")),
        inputs("amd64", origin("Containerd", "", "https://mirror/%s")),
        inputs("amd64", origin("Runc", "https://mirror/c", "")));

    List<String> names = changed.stream().map(VersionFor::of).toList();

    assertThat(names).doesNotContain(base).doesNotHaveDuplicates();
  }

  @Test
  void comparesDownloadOriginsAsTheyTakeEffect() {
    assertThat(VersionFor.of(inputs("amd64", origin("CNI", "https://mirror/cni/", ""))))
        .isEqualTo(VersionFor.of(inputs("amd64", origin("CNI", "https://mirror/cni", ""))));
    assertThat(VersionFor.of(inputs("amd64", origin("CNI", "https://ignored", "https://m/%s"))))
        .isEqualTo(VersionFor.of(inputs("amd64", origin("CNI", "", "https://m/%s"))));
    assertThat(VersionFor.of(inputs("amd64", origin("CNI", "", ""))))
        .isEqualTo(VersionFor.of(BASE));
  }

  @Test
  void theSameOverrideOnAnotherArtifactIsADifferentInput() {
    assertThat(VersionFor.of(inputs("amd64", origin("CNI", "https://m", ""))))
        .isNotEqualTo(VersionFor.of(inputs("amd64", origin("Runc", "https://m", ""))));
  }

  @Test
  void configurationChangesThatDoNotChangeBinariesKeepTheName() {
    String base = nameOf(tokenTree());
    List<UnaryOperator<ObjectNode>> changes = List.of(
        t -> with(t, "Kubelet.Labels.tier", "db"),
        t -> with(t, "Kubelet.RegisterWithTaints", List.of("gpu=true:NoExecute")),
        t -> with(t, "Kubelet.Auth.BootstrapToken", "zzzzzz.0123456789zzzzzz"),
        t -> with(t, "Cluster.ClusterDNS", "10.96.0.10"),
        t -> with(
            t,
            "Cluster.CaCertBase64",
            tokenTree().at("/Cluster/CaCertBase64").asText().replaceAll("(.{64})", "$1\n")),
        t -> with(t, "Kubelet.ApiServer", "https://other.example.com"),
        t -> with(t, "LocalDNS.BindAddress", "169.254.0.53"),
        t -> with(t, "LocalDNS.ClusterDomain", "corp.local"),
        t -> with(t, "MachineName", "another-machine"),
        t -> with(t, "Downloads.Crictl.Version", "1.31.0"),
        t -> with(t, "Downloads.Containerd.Version", "2.0.4"));

    for (UnaryOperator<ObjectNode> change : changes) {
      assertThat(nameOf(change.apply(tokenTree()))).isEqualTo(base);
    }
    assertThat(nameOf(
            tokenTree(),
            new HostInfo(
                "amd64", "6.1.0", "node-b", List.of(Path.of("/dev/nvidia0")), true, List.of())))
        .isEqualTo(base);
    assertThat(nameOf(execTree())).isNotEqualTo(base);
  }

  @Test
  void eachBinaryRelevantConfigurationFieldGivesANewName() {
    String base = nameOf(tokenTree());
    List<UnaryOperator<ObjectNode>> changes = List.of(
        t -> with(t, "Cluster.Version", "1.31.3"),
        t -> with(t, "CRI.Containerd.Version", "2.0.5"),
        t -> with(t, "CRI.Runc.Version", "1.1.13"),
        t -> with(t, "CNI.PluginVersion", "1.5.2"),
        t -> with(t, "LocalDNS.Version", "1.11.4"),
        t -> with(t, "Downloads.Crictl.Version", "1.31.1"),
        t -> with(t, "Downloads.Kubernetes.Version", "1.31.4"),
        t -> with(t, "Downloads.Kubernetes.BaseURL", "https://mirror/k8s"),
        t -> with(t, "Downloads.LocalDNS.URL", "https://mirror/coredns-%s.tgz"));

    List<String> names = changes.stream().map(c -> nameOf(c.apply(tokenTree()))).toList();

    assertThat(names).doesNotContain(base).doesNotHaveDuplicates();
    assertThat(nameOf(
            tokenTree(), new HostInfo("arm64", "6.8.0", "node-a", List.of(), false, List.of())))
        .isNotEqualTo(base);
  }

  @ParameterizedTest
  @ValueSource(strings = {"../x", "1.2.3/..", "1.2 .3", "1.2.3\u0000", ".1.2.3"})
  void refusesAKubernetesVersionThatCannotNameADirectory(String hostile) {
    assertThat(VersionFor.problemWith(hostile)).isPresent();
    assertThatThrownBy(() -> VersionFor.of(new VersionInputs(
            new ComponentVersions(hostile, "2.0.4", "1.1.12", "1.5.1", "1.31.0", "1.11.3"),
            "amd64",
            new TreeMap<>())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Kubernetes version cannot name a version directory: ");
  }

  @Test
  void refusesA300CharacterKubernetesVersion() {
    assertThat(VersionFor.problemWith("1".repeat(300)))
        .contains(
            "it is 300 characters long; a version directory name allows at most 115 before its digest");
    assertThat(VersionFor.problemWith("1".repeat(115))).isEmpty();
  }

  @Property
  void everySemanticKubernetesVersionOfAcceptableLengthNamesASafeDirectory(
      @ForAll @NumericChars @StringLength(min = 1, max = 4) String major,
      @ForAll @NumericChars @StringLength(min = 1, max = 4) String minor,
      @ForAll @AlphaChars @NumericChars @StringLength(max = 40) String prerelease) {
    String version = Long.parseLong(major) + "." + Long.parseLong(minor) + ".0"
        + (prerelease.isEmpty() ? "" : "-rc" + prerelease);
    assertThat(SemanticVersion.isValid(version)).isTrue();

    assertThat(VersionNames.isSafe(VersionFor.of(new VersionInputs(
            new ComponentVersions(version, "2.0.4", "1.1.12", "1.5.1", "1.31.0", "1.11.3"),
            "amd64",
            new TreeMap<>()))))
        .isTrue();
  }

  private static TreeMap<String, VersionInputs.DownloadOrigin> origin(
      String artifact, String baseUrl, String template) {
    TreeMap<String, VersionInputs.DownloadOrigin> m = new TreeMap<>();
    m.put(artifact, new VersionInputs.DownloadOrigin(baseUrl, template));
    return m;
  }
}
