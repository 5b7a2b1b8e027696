package dev.noneops.core.config;

import static dev.noneops.core.config.ConfigFixtures.bytes;
import static dev.noneops.core.config.ConfigFixtures.tokenTree;
import static dev.noneops.core.config.ConfigFixtures.utf8;
import static dev.noneops.core.config.ConfigFixtures.with;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.noneops.core.config.AgentConfig.KubeletAuth;
import dev.noneops.core.config.InvalidConfigException.ConfigViolation;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AgentConfigParserTest {

  private static List<ConfigViolation> parseViolations(byte[] json) {
    return catchThrowableOfType(InvalidConfigException.class, () -> AgentConfigParser.parse(json))
        .violations();
  }

  private static List<ConfigViolation> parseViolations(String json) {
    return parseViolations(utf8(json));
  }

  @Test
  void readsTheUpstreamBootstrapTokenShape() {
    AgentConfig c = AgentConfigParser.parse(utf8(ConfigFixtures.tokenJson()));

    assertThat(c.machineName()).isEqualTo("worker-1");
    assertThat(c.cluster())
        .isEqualTo(new AgentConfig.Cluster(ConfigFixtures.CA_BASE64, "10.0.0.10", "1.31.2"));
    assertThat(c.kubelet().apiServer()).isEqualTo("https://api.example.com:6443");
    assertThat(c.kubelet().auth().kubeletAuth())
        .isEqualTo(new KubeletAuth.BootstrapToken(ConfigFixtures.TOKEN));
    assertThat(c.kubelet().labels())
        .containsExactly(Map.entry("example.com/pool", "blue"), Map.entry("tier", ""));
    assertThat(c.kubelet().registerWithTaints()).containsExactly("dedicated=infra:NoSchedule");
    assertThat(c.cri()).isEqualTo(AgentConfig.Cri.DEFAULTS);
    assertThat(c.cni()).isEqualTo(AgentConfig.Cni.DEFAULTS);
    assertThat(c.downloads()).isEqualTo(AgentConfig.Downloads.NONE);
    assertThat(c.localDns())
        .isEqualTo(new AgentConfig.LocalDns("", "169.254.20.10", "localdns0", "cluster.local"));
  }

  @Test
  void readsTheUpstreamExecCredentialShape() {
    AgentConfig c = AgentConfigParser.parse(utf8(ConfigFixtures.execJson()));

    assertThat(c.kubelet().auth().kubeletAuth())
        .isEqualTo(new KubeletAuth.ExecCredential(
            "/usr/local/bin/token-helper",
            List.of("get-token", "--audience", "kubelet"),
            List.of(new KubeletAuth.EnvVar("REGION", "west")),
            "client.authentication.k8s.io/v1",
            "install token-helper",
            true));
    assertThat(c.kubelet().labels()).isEmpty();
    assertThat(c.kubelet().registerWithTaints()).isEmpty();
    assertThat(c.cri()).isEqualTo(new AgentConfig.Cri("2.1.1", "1.2.5"));
    assertThat(c.cni()).isEqualTo(new AgentConfig.Cni("1.6.2"));
  }

  @Test
  void readsDownloadsAttestAndLocalDns() {
    String json = """
        {"Downloads": {
           "Kubernetes": {"BaseURL": "https://mirror.example.com/k8s/", "Version": "v1.31.3"},
           "Containerd": {"URL": "https://mirror.example.com/c/%s/%s/%s.tgz"},
           "Runc": {}, "CNI": {"Version": "1.6.0"}, "Crictl": {"Version": "1.31.1"},
           "LocalDNS": {"BaseURL": "https://mirror.example.com/coredns"}},
         "Attest": {"URL": "http://pxe.example.com"},
         "LocalDNS": {"Version": "v1.12.0", "BindAddress": "169.254.0.53", "InterfaceName": "dns0", "ClusterDomain": "corp.local"}}
        """;
    AgentConfig c = AgentConfigParser.parse(utf8(json));

    assertThat(c.downloads())
        .isEqualTo(new AgentConfig.Downloads(
            new AgentConfig.Download("https://mirror.example.com/k8s/", "", "1.31.3"),
            new AgentConfig.Download("", "https://mirror.example.com/c/%s/%s/%s.tgz", ""),
            AgentConfig.Download.NONE,
            new AgentConfig.Download("", "", "1.6.0"),
            new AgentConfig.Download("", "", "1.31.1"),
            new AgentConfig.Download("https://mirror.example.com/coredns", "", "")));
    assertThat(c.attest()).isEqualTo(new AgentConfig.Attest("http://pxe.example.com"));
    assertThat(c.localDns())
        .isEqualTo(new AgentConfig.LocalDns("1.12.0", "169.254.0.53", "dns0", "corp.local"));
  }

  @Test
  void keysMatchCaseInsensitivelyAsInGo() {
    AgentConfig c = AgentConfigParser.parse(utf8("""
        {"cluster": {"version": "1.31.2", "clusterdns": "10.0.0.10"}, "KUBELET": {"apiserver": "https://a.example.com"}}
        """));

    assertThat(c.cluster().version()).isEqualTo("1.31.2");
    assertThat(c.cluster().clusterDns()).isEqualTo("10.0.0.10");
    assertThat(c.kubelet().apiServer()).isEqualTo("https://a.example.com");
  }

  @Test
  void nullMeansNotSet() {
    AgentConfig c = AgentConfigParser.parse(utf8("""
        {"MachineName": null, "Cluster": null, "Kubelet": {"Auth": {"BootstrapToken": null, "ExecCredential": null}}, "CRI": null}
        """));

    assertThat(c.machineName()).isEmpty();
    assertThat(c.cluster()).isEqualTo(new AgentConfig.Cluster("", "", ""));
    assertThat(c.kubelet().auth()).isEqualTo(new AgentConfig.Auth("", Optional.empty()));
  }

  @Test
  void rejectsAnUnknownKeyNamingItsPathAndTheKnownKeys() {
    assertThat(parseViolations(bytes(with(tokenTree(), "Clusterr", "x"))))
        .containsExactly(
            new ConfigViolation(
                "Clusterr",
                "unknown key; expected one of: MachineName, Cluster, Kubelet, CRI, CNI, OCIImage, Attest, Downloads, LocalDNS"));
  }

  @Test
  void rejectsTheDocumentedButWrongFlatBootstrapTokenAndSaysWhereItBelongs() {
    assertThat(parseViolations(
            bytes(with(tokenTree(), "Kubelet.BootstrapToken", ConfigFixtures.TOKEN))))
        .containsExactly(new ConfigViolation(
            "Kubelet.BootstrapToken", "unknown key; it belongs at Kubelet.Auth.BootstrapToken"));
  }

  @Test
  void rejectsAMisspeltNestedKey() {
    assertThat(parseViolations(bytes(with(tokenTree(), "Downloads.Containerd.Verison", "2.1.0"))))
        .containsExactly(
            new ConfigViolation(
                "Downloads.Containerd.Verison",
                "unknown key; expected one of: BaseURL, URL, Version, SHA256, SHA256URL, AllowUnverified"));
  }

  @Test
  void pinsKubernetesBinariesOneByOne() {
    assertThat(parseViolations(
            bytes(with(tokenTree(), "Downloads.Kubernetes.SHA256", "0".repeat(64)))))
        .containsExactly(
            new ConfigViolation(
                "Downloads.Kubernetes.SHA256",
                "must be an object of kubelet, kubectl and kube-proxy digests (Kubernetes publishes one per binary)"));
    assertThat(parseViolations(
            bytes(with(tokenTree(), "Downloads.Kubernetes.SHA256.kubeadm", "0".repeat(64)))))
        .containsExactly(new ConfigViolation(
            "Downloads.Kubernetes.SHA256.kubeadm",
            "unknown key; expected one of: kubelet, kubectl, kube-proxy"));
  }

  @Test
  void rejectsAnOptOutOfVerificationThatIsNotABoolean() {
    assertThat(parseViolations(bytes(with(tokenTree(), "Downloads.Runc.AllowUnverified", "yes"))))
        .containsExactly(
            new ConfigViolation("Downloads.Runc.AllowUnverified", "must be true or false"));
  }

  @Test
  void quotesAnUnknownKeyThatIsNotAnIdentifier() {
    assertThat(parseViolations("{\"CNI\": {\"Plugin Version\": \"1\"}}"))
        .containsExactly(new ConfigViolation(
            "CNI[\"Plugin Version\"]", "unknown key; expected one of: PluginVersion"));
  }

  @Test
  void rejectsKeysThatDifferOnlyInCase() {
    assertThat(parseViolations("{\"Cluster\": {\"Version\": \"1.31.2\", \"version\": \"1.30.0\"}}"))
        .containsExactly(new ConfigViolation(
            "Cluster.version",
            "duplicate key: Cluster.Version is already set (keys match case-insensitively)"));
  }

  @Test
  void rejectsAnExactlyRepeatedKey() {
    assertThat(parseViolations("{\"MachineName\": \"a\",\n \"MachineName\": \"b\"}"))
        .singleElement()
        .satisfies(v -> {
          assertThat(v.path()).isEqualTo("$");
          assertThat(v.reason())
              .isEqualTo("is not valid JSON: Duplicate field 'MachineName' (line 2, column 15)");
        });
  }

  @Test
  void rejectsValuesOfTheWrongType() {
    var tree = with(tokenTree(), "Cluster.Version", 131);
    tree = with(tree, "Kubelet.Labels", JsonNodeFactory.instance.objectNode().put("tier", 3));
    tree = with(tree, "Kubelet.RegisterWithTaints", "dedicated=infra:NoSchedule");
    tree = with(tree, "CNI", "1.5.1");
    tree = with(tree, "Downloads.Runc", JsonNodeFactory.instance.arrayNode());

    assertThat(parseViolations(bytes(tree)))
        .containsExactly(
            new ConfigViolation("Cluster.Version", "must be a string"),
            new ConfigViolation("Kubelet.Labels[\"tier\"]", "must be a string"),
            new ConfigViolation("Kubelet.RegisterWithTaints", "must be an array"),
            new ConfigViolation("CNI", "must be an object"),
            new ConfigViolation("Downloads.Runc", "must be an object"));
  }

  @Test
  void rejectsMistypedExecCredentialFields() {
    String json = """
        {"Kubelet": {"Auth": {"ExecCredential": {"command": "x", "args": ["a", 1], "env": ["A=b", {"name": "N", "valeu": "v"}],
          "provideClusterInfo": "yes"}}}}
        """;

    assertThat(parseViolations(json))
        .containsExactly(
            new ConfigViolation("Kubelet.Auth.ExecCredential.env[0]", "must be an object"),
            new ConfigViolation(
                "Kubelet.Auth.ExecCredential.env[1].valeu",
                "unknown key; expected one of: name, value"),
            new ConfigViolation("Kubelet.Auth.ExecCredential.args[1]", "must be a string"),
            new ConfigViolation(
                "Kubelet.Auth.ExecCredential.provideClusterInfo", "must be true or false"));
  }

  @Test
  void acceptsNonInteractivePluginModesAndRejectsAlways() {
    var exec = "Kubelet.Auth.ExecCredential.interactiveMode";
    assertThat(ConfigFixtures.config(with(ConfigFixtures.execTree(), exec, "Never")))
        .isNotNull();
    assertThat(ConfigFixtures.config(with(ConfigFixtures.execTree(), exec, "IfAvailable")))
        .isNotNull();

    assertThat(parseViolations(bytes(with(ConfigFixtures.execTree(), exec, "Always"))))
        .containsExactly(
            new ConfigViolation(
                exec,
                "must be Never or IfAvailable (kubelet runs the plugin without a terminal), got 'Always'"));
  }

  @Test
  void rejectsDocumentsThatAreNotOneJsonObject() {
    assertThat(parseViolations("")).containsExactly(new ConfigViolation("$", "is empty"));
    assertThat(parseViolations("[]"))
        .containsExactly(new ConfigViolation("$", "must be a JSON object"));
    assertThat(parseViolations("{} {}"))
        .singleElement()
        .satisfies(v -> assertThat(v.reason()).startsWith("is not valid JSON: Trailing token"));
    assertThat(parseViolations("{\"Cluster\": {"))
        .singleElement()
        .satisfies(v -> assertThat(v.reason())
            .startsWith("is not valid JSON: Unexpected end-of-input")
            .endsWith("(line 1, column 14)"));
  }

  @Test
  void reportsEveryShapeProblemAtOnce() {
    var tree = with(tokenTree(), "Kubelet.BootstrapToken", "x");
    tree = with(tree, "Cluster.Verison", "1.2.3");
    byte[] json = bytes(with(tree, "MachineName", false));

    InvalidConfigException e =
        catchThrowableOfType(InvalidConfigException.class, () -> AgentConfigParser.parse(json));

    assertThat(e.getMessage()).isEqualTo("""
        invalid agent configuration (3 violations)
          - MachineName: must be a string
          - Cluster.Verison: unknown key; expected one of: CaCertBase64, ClusterDNS, Version
          - Kubelet.BootstrapToken: unknown key; it belongs at Kubelet.Auth.BootstrapToken""");
  }

  @Test
  void parseAndValidateReportsShapeAndRuleViolationsTogetherWithoutRepeatingAMistypedField() {
    var tree = with(tokenTree(), "Cluster.ClusterDNS", 10);
    tree = with(tree, "Kubelet.Auth.BootstrapToken", null);
    byte[] json = bytes(with(tree, "Kubelet.Extra", "x"));

    assertThatThrownBy(() -> AgentConfigParser.parseAndValidate(json, "amd64"))
        .isInstanceOfSatisfying(
            InvalidConfigException.class,
            e -> assertThat(e.violations())
                .containsExactly(
                    new ConfigViolation("Cluster.ClusterDNS", "must be a string"),
                    new ConfigViolation(
                        "Kubelet.Extra",
                        "unknown key; expected one of: ApiServer, Auth, Labels, RegisterWithTaints"),
                    new ConfigViolation(
                        "Kubelet.Auth", "one of BootstrapToken or ExecCredential must be set")));
  }

  @Test
  void parseAndValidateMatchesAMistypedFieldWrittenInAnotherCase() {
    byte[] json = bytes(
        with(ConfigFixtures.without(tokenTree(), "Cluster.ClusterDNS"), "Cluster.clusterdns", 10));

    assertThatThrownBy(() -> AgentConfigParser.parseAndValidate(json, "amd64"))
        .isInstanceOfSatisfying(
            InvalidConfigException.class,
            e -> assertThat(e.violations())
                .containsExactly(new ConfigViolation("Cluster.clusterdns", "must be a string")));
  }

  @Test
  void parseAndValidateReturnsAValidConfiguration() {
    assertThat(AgentConfigParser.parseAndValidate(utf8(ConfigFixtures.tokenJson()), "arm64"))
        .isEqualTo(ConfigFixtures.tokenConfig());
  }
}
