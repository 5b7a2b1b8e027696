package dev.noneops.core.config;

import static dev.noneops.core.config.ConfigFixtures.config;
import static dev.noneops.core.config.ConfigFixtures.execTree;
import static dev.noneops.core.config.ConfigFixtures.tokenTree;
import static dev.noneops.core.config.ConfigFixtures.with;
import static dev.noneops.core.config.ConfigFixtures.without;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.noneops.core.config.InvalidConfigException.ConfigViolation;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConfigValidatorTest {

  private static List<ConfigViolation> violations(ObjectNode tree) {
    return ConfigValidator.violations(config(tree), "amd64");
  }

  private static void assertOnlyViolation(ObjectNode tree, String path, String reason) {
    assertThat(violations(tree)).containsExactly(new ConfigViolation(path, reason));
  }

  private static ObjectNode labels(String key, String value) {
    return with(
        tokenTree(), "Kubelet.Labels", JsonNodeFactory.instance.objectNode().put(key, value));
  }

  private static ObjectNode taints(String... taints) {
    return with(tokenTree(), "Kubelet.RegisterWithTaints", List.of(taints));
  }

  private static String base64(String s) {
    return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.US_ASCII));
  }

  @Test
  void acceptsTheUpstreamExamples() {
    assertThat(violations(tokenTree())).isEmpty();
    assertThat(violations(execTree())).isEmpty();
    assertThat(ConfigValidator.violations(config(tokenTree()), "arm64")).isEmpty();
  }

  @Test
  void rejectsAnUnsupportedArchitecture() {
    assertThat(ConfigValidator.violations(config(tokenTree()), "s390x"))
        .containsExactly(new ConfigViolation(
            "host.arch", "unsupported architecture 's390x' (supported: amd64, arm64)"));
  }

  @Test
  void throwsOneErrorListingEveryViolation() {
    var tree = with(tokenTree(), "Cluster.ClusterDNS", "kube-dns");
    tree = with(tree, "Kubelet.ApiServer", "http://api");
    tree = with(tree, "CRI.Runc.Version", "latest");
    AgentConfig c = config(tree);

    assertThatThrownBy(() -> ConfigValidator.validate(c, "riscv64"))
        .isInstanceOf(InvalidConfigException.class)
        .hasMessage("""
            invalid agent configuration (4 violations)
              - host.arch: unsupported architecture 'riscv64' (supported: amd64, arm64)
              - Cluster.ClusterDNS: must be an IP address, got 'kube-dns'
              - Kubelet.ApiServer: must use https, got 'http://api'
              - CRI.Runc.Version: must be a semantic version such as 1.1.12, got 'latest'""");
  }

  @Nested
  class MachineName {
    @Test
    void acceptsAKubernetesObjectName() {
      assertThat(violations(with(tokenTree(), "MachineName", "worker-1.pool-a")))
          .isEmpty();
      assertThat(violations(with(tokenTree(), "MachineName", "a".repeat(253)))).isEmpty();
    }

    @Test
    void mayBeLeftUnset() {
      assertThat(violations(without(tokenTree(), "MachineName"))).isEmpty();
    }

    @Test
    void rejectsANameThatIsNotADnsSubdomain() {
      assertOnlyViolation(
          with(tokenTree(), "MachineName", "Worker_1"),
          "MachineName",
          "is not a Kubernetes object name (a DNS-1123 subdomain such as worker-1): must consist of lower case alphanumeric "
              + "characters, '-' or '.', and must start and end with an alphanumeric character");
      assertOnlyViolation(
          with(tokenTree(), "MachineName", "../etc"),
          "MachineName",
          "is not a Kubernetes object name (a DNS-1123 subdomain such as worker-1): must consist of lower case alphanumeric "
              + "characters, '-' or '.', and must start and end with an alphanumeric character");
      assertOnlyViolation(
          with(tokenTree(), "MachineName", "worker-1-"),
          "MachineName",
          "is not a Kubernetes object name (a DNS-1123 subdomain such as worker-1): must consist of lower case alphanumeric "
              + "characters, '-' or '.', and must start and end with an alphanumeric character");
    }

    @Test
    void rejectsANameLongerThan253Characters() {
      assertOnlyViolation(
          with(tokenTree(), "MachineName", "a".repeat(254)),
          "MachineName",
          "is not a Kubernetes object name (a DNS-1123 subdomain such as worker-1): must be no more than 253 characters");
    }
  }

  @Nested
  class Auth {
    @Test
    void rejectsBothCredentials() {
      var tree = with(execTree(), "Kubelet.Auth.BootstrapToken", ConfigFixtures.TOKEN);
      assertOnlyViolation(
          tree, "Kubelet.Auth", "BootstrapToken and ExecCredential are mutually exclusive");
    }

    @Test
    void rejectsNeitherCredential() {
      assertOnlyViolation(
          without(tokenTree(), "Kubelet.Auth.BootstrapToken"),
          "Kubelet.Auth",
          "one of BootstrapToken or ExecCredential must be set");
    }

    @Test
    void rejectsAMalformedBootstrapTokenWithoutEchoingIt() {
      assertOnlyViolation(
          with(tokenTree(), "Kubelet.Auth.BootstrapToken", "ABCDEF.secret"),
          "Kubelet.Auth.BootstrapToken",
          "must have the form <id>.<secret>: 6 and 16 characters of [a-z0-9]");
    }

    @Test
    void rejectsAnExecCredentialWithoutCommand() {
      assertOnlyViolation(
          without(execTree(), "Kubelet.Auth.ExecCredential.command"),
          "Kubelet.Auth.ExecCredential.command",
          "must be set");
    }

    @Test
    void rejectsAnExecCredentialWithoutApiVersion() {
      assertOnlyViolation(
          without(execTree(), "Kubelet.Auth.ExecCredential.apiVersion"),
          "Kubelet.Auth.ExecCredential.apiVersion",
          "must be set (client.authentication.k8s.io/v1 or client.authentication.k8s.io/v1beta1)");
    }

    @Test
    void rejectsAnUnknownExecApiVersion() {
      assertOnlyViolation(
          with(
              execTree(),
              "Kubelet.Auth.ExecCredential.apiVersion",
              "client.authentication.k8s.io/v1alpha1"),
          "Kubelet.Auth.ExecCredential.apiVersion",
          "must be client.authentication.k8s.io/v1 or client.authentication.k8s.io/v1beta1, got 'client.authentication.k8s.io/v1alpha1'");
    }

    @Test
    void rejectsAnExecEnvironmentVariableWithoutName() {
      var env = JsonNodeFactory.instance.arrayNode();
      env.addObject().put("name", "A").put("value", "1");
      env.addObject().put("value", "2");
      assertOnlyViolation(
          with(execTree(), "Kubelet.Auth.ExecCredential.env", env),
          "Kubelet.Auth.ExecCredential.env[1].name",
          "must be set");
    }
  }

  @Nested
  class ClusterCa {
    private static final String PATH = "Cluster.CaCertBase64";

    @Test
    void rejectsAnEmptyCa() {
      assertOnlyViolation(with(tokenTree(), PATH, ""), PATH, "must be set");
    }

    @Test
    void rejectsCharactersOutsideStandardBase64() {
      assertOnlyViolation(
          with(tokenTree(), PATH, "LS0t_LS1CRUd"),
          PATH,
          "is not valid standard base64: Illegal base64 character 5f");
    }

    @Test
    void rejectsMissingPadding() {
      assertOnlyViolation(
          with(tokenTree(), PATH, "LS0tLQ"),
          PATH,
          "is not valid standard base64: its length is not a multiple of 4 (missing padding?)");
    }

    @Test
    void rejectsBase64ThatIsNotPem() {
      assertOnlyViolation(
          with(tokenTree(), PATH, base64("just some bytes")),
          PATH,
          "does not decode to a PEM certificate (no -----BEGIN CERTIFICATE----- block)");
    }

    @Test
    void rejectsAPemBlockThatIsNotACertificate() {
      var pem = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n";
      assertThat(violations(with(tokenTree(), PATH, base64(pem))))
          .singleElement()
          .satisfies(v -> {
            assertThat(v.path()).isEqualTo(PATH);
            assertThat(v.reason())
                .startsWith("holds a PEM block that is not a valid X.509 certificate: ");
          });
    }

    @Test
    void acceptsBase64WrappedOverLinesAsGoDoes() {
      String wrapped = ConfigFixtures.CA_BASE64.replaceAll("(.{64})", "$1\n");
      assertThat(violations(with(tokenTree(), PATH, wrapped))).isEmpty();
    }
  }

  @Nested
  class Dns {
    @Test
    void requiresClusterDns() {
      assertOnlyViolation(
          with(tokenTree(), "Cluster.ClusterDNS", ""), "Cluster.ClusterDNS", "must be set");
    }

    @Test
    void rejectsAClusterDnsThatIsNotAnIp() {
      assertOnlyViolation(
          with(tokenTree(), "Cluster.ClusterDNS", "10.0.0.300"),
          "Cluster.ClusterDNS",
          "must be an IP address, got '10.0.0.300'");
    }

    @Test
    void acceptsIpv6Addresses() {
      var tree = with(tokenTree(), "Cluster.ClusterDNS", "fd00::a");
      assertThat(violations(with(tree, "LocalDNS.BindAddress", "fd00:5::1"))).isEmpty();
    }

    @Test
    void rejectsALocalDnsBindAddressThatIsNotAnIp() {
      assertOnlyViolation(
          with(tokenTree(), "LocalDNS.BindAddress", "localhost"),
          "LocalDNS.BindAddress",
          "must be an IP address, got 'localhost'");
    }

    @Test
    void rejectsALocalDnsBindAddressEqualToTheClusterDns() {
      assertOnlyViolation(
          with(tokenTree(), "LocalDNS.BindAddress", "10.0.0.10"),
          "LocalDNS.BindAddress",
          "must differ from Cluster.ClusterDNS, which LocalDNS forwards the cluster domain to");
    }

    @Test
    void rejectsABadInterfaceName() {
      assertOnlyViolation(
          with(tokenTree(), "LocalDNS.InterfaceName", "a-very-long-ifname"),
          "LocalDNS.InterfaceName",
          "must be a network interface name: 1 to 15 characters of [A-Za-z0-9_.-], not '.' or '..', got 'a-very-long-ifname'");
      assertOnlyViolation(
          with(tokenTree(), "LocalDNS.InterfaceName", ".."),
          "LocalDNS.InterfaceName",
          "must be a network interface name: 1 to 15 characters of [A-Za-z0-9_.-], not '.' or '..', got '..'");
    }

    @Test
    void rejectsAClusterDomainThatIsNotADnsName() {
      assertOnlyViolation(
          with(tokenTree(), "LocalDNS.ClusterDomain", "Cluster.Local."),
          "LocalDNS.ClusterDomain",
          "is not a DNS domain such as cluster.local: must consist of lower case alphanumeric characters, '-' or '.', "
              + "and must start and end with an alphanumeric character");
    }
  }

  @Nested
  class Versions {
    @Test
    void requiresTheKubernetesVersion() {
      assertOnlyViolation(
          with(tokenTree(), "Cluster.Version", ""), "Cluster.Version", "must be set");
    }

    @ParameterizedTest
    @ValueSource(
        strings = {
          "../x",
          "1.2.3/..",
          "1.2.3/../../etc",
          "1.2 .3",
          "1.2.3 ",
          "1.31",
          "1.31.2.4",
          "01.2.3",
          "latest"
        })
    void rejectsKubernetesVersionsThatAreNotSemantic(String version) {
      assertOnlyViolation(
          with(tokenTree(), "Cluster.Version", version),
          "Cluster.Version",
          "must be a semantic version such as 1.31.2, got '" + version + "'");
    }

    @Test
    void rejectsANulInTheKubernetesVersionAndShowsItEscaped() {
      assertOnlyViolation(
          with(tokenTree(), "Cluster.Version", "1.2.3\u0000"),
          "Cluster.Version",
          "must be a semantic version such as 1.31.2, got '1.2.3\\u0000'");
    }

    @Test
    void rejectsA300CharacterVersionAndShortensItInTheMessage() {
      String version = "1.2.3-" + "a".repeat(294);
      assertOnlyViolation(
          with(tokenTree(), "Cluster.Version", version),
          "Cluster.Version",
          "cannot name a version directory: it is 300 characters long; a version directory name allows at most 115 before its digest");
    }

    @Test
    void rejectsA300CharacterNonSemanticVersionWithoutRepeatingItInFull() {
      String version = "x".repeat(300);
      assertOnlyViolation(
          with(tokenTree(), "Cluster.Version", version),
          "Cluster.Version",
          "must be a semantic version such as 1.31.2, got '" + "x".repeat(80)
              + "...(300 characters)'");
    }

    @Test
    void judgesTheKubernetesDownloadOverrideVersionLikeTheClusterVersion() {
      assertOnlyViolation(
          with(tokenTree(), "Downloads.Kubernetes.Version", "../x"),
          "Downloads.Kubernetes.Version",
          "must be a semantic version such as 1.0.0, got '../x'");
      String longVersion = "1.2.3+" + "b".repeat(120);
      assertOnlyViolation(
          with(tokenTree(), "Downloads.Kubernetes.Version", longVersion),
          "Downloads.Kubernetes.Version",
          "cannot name a version directory: it is 126 characters long; a version directory name allows at most 115 before its digest");
    }

    @Test
    void rejectsComponentVersionsThatAreNotSemantic() {
      var tree = with(tokenTree(), "CRI.Containerd.Version", "2.0");
      tree = with(tree, "CRI.Runc.Version", "1.1.12/..");
      tree = with(tree, "CNI.PluginVersion", "v1.5");
      tree = with(tree, "LocalDNS.Version", "1.11.3 ");
      tree = with(tree, "Downloads.Crictl.Version", "../1.31.0");

      assertThat(violations(tree))
          .containsExactly(
              new ConfigViolation(
                  "CRI.Containerd.Version", "must be a semantic version such as 2.0.4, got '2.0'"),
              new ConfigViolation(
                  "CRI.Runc.Version", "must be a semantic version such as 1.1.12, got '1.1.12/..'"),
              new ConfigViolation(
                  "CNI.PluginVersion", "must be a semantic version such as 1.5.1, got '1.5'"),
              new ConfigViolation(
                  "Downloads.Crictl.Version",
                  "must be a semantic version such as 1.0.0, got '../1.31.0'"),
              new ConfigViolation(
                  "LocalDNS.Version", "must be a semantic version such as 1.11.3, got '1.11.3 '"));
    }

    @Test
    void acceptsPrereleaseAndBuildMetadata() {
      var tree = with(tokenTree(), "Cluster.Version", "1.32.0-rc.1+azure.2");
      assertThat(violations(with(tree, "CRI.Runc.Version", "1.0.0-rc93"))).isEmpty();
    }
  }

  @Nested
  class ApiServer {
    private static final String PATH = "Kubelet.ApiServer";

    @Test
    void isRequired() {
      assertOnlyViolation(with(tokenTree(), PATH, ""), PATH, "must be set");
    }

    @Test
    void mustUseHttps() {
      assertOnlyViolation(
          with(tokenTree(), PATH, "ftp://api"), PATH, "must use https, got 'ftp://api'");
    }

    @Test
    void mustBeAValidUrl() {
      assertOnlyViolation(
          with(tokenTree(), PATH, "api server:6443"),
          PATH,
          "is not a valid URL: Illegal character in authority at index 8");
    }

    @Test
    void mustNameAHost() {
      assertOnlyViolation(
          with(tokenTree(), PATH, "https:///path"), PATH, "must name a host, got 'https:///path'");
    }

    @Test
    void mustNotCarryCredentialsOrAQuery() {
      assertOnlyViolation(
          with(tokenTree(), PATH, "https://user:pw@api"), PATH, "must not carry user credentials");
      assertOnlyViolation(
          with(tokenTree(), PATH, "https://api?x=1"), PATH, "must not have a query or fragment");
    }
  }

  @Nested
  class Labels {
    @Test
    void acceptsQualifiedKeysAndValidValues() {
      var labels = JsonNodeFactory.instance
          .objectNode()
          .put("example.com/role", "edge_1")
          .put("tier", "")
          .put("node.kubernetes.io/exclude-from-external-load-balancers", "true")
          .put("kubernetes.io/hostname", "w1")
          .put("topology.kubernetes.io/zone", "z1");
      assertThat(violations(with(tokenTree(), "Kubelet.Labels", labels))).isEmpty();
    }

    @Test
    void rejectsKeyNameCharacters() {
      assertOnlyViolation(
          labels("bad key!", "v"),
          "Kubelet.Labels[\"bad key!\"]",
          "key is not a qualified name: name part must consist of alphanumeric characters, '-', '_' or '.', "
              + "and must start and end with an alphanumeric character");
    }

    @Test
    void rejectsAKeyNameLongerThan63Characters() {
      String key = "a".repeat(64);
      assertOnlyViolation(
          labels(key, "v"),
          "Kubelet.Labels[\"" + key + "\"]",
          "key is not a qualified name: name part must be no more than 63 characters");
    }

    @Test
    void rejectsAPrefixThatIsNotADnsSubdomain() {
      assertOnlyViolation(
          labels("Example.com/role", "v"),
          "Kubelet.Labels[\"Example.com/role\"]",
          "key is not a qualified name: prefix part must consist of lower case alphanumeric characters, '-' or '.', "
              + "and must start and end with an alphanumeric character");
    }

    @Test
    void rejectsAnEmptyPrefixOrName() {
      assertOnlyViolation(
          labels("/role", "v"),
          "Kubelet.Labels[\"/role\"]",
          "key is not a qualified name: prefix part must be non-empty");
      assertOnlyViolation(
          labels("example.com/", "v"),
          "Kubelet.Labels[\"example.com/\"]",
          "key is not a qualified name: name part must be non-empty");
    }

    @Test
    void rejectsMoreThanOneSlash() {
      assertOnlyViolation(
          labels("a/b/c", "v"),
          "Kubelet.Labels[\"a/b/c\"]",
          "key is not a qualified name: must be a name with at most one '/' separating an optional DNS subdomain prefix");
    }

    @Test
    void rejectsAValueLongerThan63Characters() {
      assertOnlyViolation(
          labels("tier", "v".repeat(64)),
          "Kubelet.Labels[\"tier\"]",
          "value is not a valid label value: must be no more than 63 characters");
    }

    @Test
    void rejectsValueCharacters() {
      assertOnlyViolation(
          labels("tier", "-front"),
          "Kubelet.Labels[\"tier\"]",
          "value is not a valid label value: must be empty or consist of alphanumeric characters, '-', '_' or '.', "
              + "and must start and end with an alphanumeric character");
    }

    @Test
    void rejectsKubernetesNamespacedLabelsKubeletMayNotSet() {
      assertOnlyViolation(
          labels("node-role.kubernetes.io/worker", ""),
          "Kubelet.Labels[\"node-role.kubernetes.io/worker\"]",
          "key is in the kubernetes.io or k8s.io namespace, which kubelet may not set on its node (allowed there: "
              + "kubelet.kubernetes.io/*, node.kubernetes.io/* and the well-known labels such as kubernetes.io/hostname)");
      assertThat(violations(labels("example.k8s.io/x", "y"))).hasSize(1);
    }
  }

  @Nested
  class Taints {
    private static final String PATH = "Kubelet.RegisterWithTaints[1]";

    @Test
    void acceptsKeyValueEffectAndKeyEffect() {
      assertThat(violations(taints(
              "dedicated=infra:NoSchedule",
              "example.com/gpu:NoExecute",
              "spot=true:PreferNoSchedule")))
          .isEmpty();
    }

    @Test
    void rejectsAMissingEffect() {
      assertOnlyViolation(
          taints("a=b:NoSchedule", "dedicated=infra"),
          PATH,
          "must have the form key[=value]:Effect, got 'dedicated=infra'");
    }

    @Test
    void rejectsTwoEqualsSigns() {
      assertOnlyViolation(
          taints("a=b:NoSchedule", "a=b=c:NoSchedule"),
          PATH,
          "must have the form key[=value]:Effect, got 'a=b=c:NoSchedule'");
    }

    @Test
    void rejectsAnUnknownEffect() {
      assertOnlyViolation(
          taints("a=b:NoSchedule", "a=b:noschedule"),
          PATH,
          "effect must be one of NoSchedule, PreferNoSchedule, NoExecute, got 'noschedule'");
    }

    @Test
    void rejectsABadKey() {
      assertOnlyViolation(
          taints("a=b:NoSchedule", "=b:NoSchedule"),
          PATH,
          "key is not a qualified name: name part must be non-empty");
    }

    @Test
    void rejectsABadValue() {
      assertOnlyViolation(
          taints("a=b:NoSchedule", "c=" + "v".repeat(64) + ":NoSchedule"),
          PATH,
          "value is not a valid label value: must be no more than 63 characters");
    }

    @Test
    void rejectsARepeatedKeyAndEffect() {
      assertOnlyViolation(
          taints("a=b:NoSchedule", "a=c:NoSchedule"),
          PATH,
          "repeats the key and effect of Kubelet.RegisterWithTaints[0] (taints must be unique by key and effect)");
    }
  }

  @Nested
  class Downloads {
    @Test
    void acceptsHttpAndHttpsMirrorsAndUsableTemplates() {
      var tree = with(tokenTree(), "Downloads.Kubernetes.BaseURL", "http://10.0.0.5:8080/k8s/");
      tree = with(tree, "Downloads.Runc.URL", "https://mirror/runc/v%[1]s/runc.%[2]s?raw=1");
      tree = with(tree, "Downloads.Crictl.URL", "https://mirror/crictl-%s-%s-%s-%s.tgz");
      tree = with(tree, "Downloads.LocalDNS.URL", "https://mirror/coredns-pinned.tgz");
      assertThat(violations(tree)).isEmpty();
    }

    @Test
    void rejectsABaseUrlThatIsNotHttp() {
      assertOnlyViolation(
          with(tokenTree(), "Downloads.Containerd.BaseURL", "file:///srv/containerd"),
          "Downloads.Containerd.BaseURL",
          "must be an http or https URL, got 'file:///srv/containerd'");
    }

    @Test
    void rejectsABaseUrlWithAQuery() {
      assertOnlyViolation(
          with(tokenTree(), "Downloads.CNI.BaseURL", "https://mirror/cni?x=1"),
          "Downloads.CNI.BaseURL",
          "must not have a query or fragment");
    }

    @Test
    void rejectsATemplateWithAnUnsupportedVerb() {
      assertOnlyViolation(
          with(tokenTree(), "Downloads.Containerd.URL", "https://mirror/%d/c.tgz"),
          "Downloads.Containerd.URL",
          "is not a usable URL template: it has an unsupported placeholder '%d'; only %s, %[n]s and %% are allowed"
              + " (arguments in order: version, version, arch)");
    }

    @Test
    void rejectsATemplateWithMorePlaceholdersThanArguments() {
      assertOnlyViolation(
          with(tokenTree(), "Downloads.Runc.URL", "https://mirror/%s/%s/%s"),
          "Downloads.Runc.URL",
          "is not a usable URL template: it %s refers to argument 3 but only 2 are available (arguments in order: version, arch)");
    }

    @Test
    void rejectsATemplateThatDoesNotRenderToAUrl() {
      assertOnlyViolation(
          with(tokenTree(), "Downloads.Kubernetes.URL", "mirror/%s/%s/%s"),
          "Downloads.Kubernetes.URL",
          "does not render to a valid URL (for example 'mirror/1.0.0/amd64/kubelet'): must be an http or https URL, "
              + "got 'mirror/1.0.0/amd64/kubelet'");
    }

    @Test
    void rejectsATemplateThatRendersToAUrlWithAFragment() {
      assertOnlyViolation(
          with(tokenTree(), "Downloads.Runc.URL", "https://m/%s/runc.%s#x"),
          "Downloads.Runc.URL",
          "does not render to a valid URL (for example 'https://m/1.0.0/runc.amd64#x'): must not have a fragment");
    }

    @Test
    void rejectsAChecksumUrlTemplateAsAUrlTemplate() {
      assertOnlyViolation(
          with(tokenTree(), "Downloads.Runc.SHA256URL", "https://mirror/%s/%s/%s/SUMS"),
          "Downloads.Runc.SHA256URL",
          "is not a usable URL template: it %s refers to argument 3 but only 2 are available (arguments in order: version, arch)");
      assertOnlyViolation(
          with(tokenTree(), "Downloads.CNI.SHA256URL", "ftp://m/cni/%s.sha256"),
          "Downloads.CNI.SHA256URL",
          "does not render to a valid URL (for example 'ftp://m/cni/1.0.0.sha256'): must be an http or https URL, "
              + "got 'ftp://m/cni/1.0.0.sha256'");
    }

    @Test
    void acceptsAChecksumUrlOfItsOwnWithAQuery() {
      var tree = with(
          tokenTree(), "Downloads.Containerd.SHA256URL", "https://m/c/%s/c-%s-%s.sha256sum?sig=1");
      tree = with(tree, "Downloads.Kubernetes.SHA256URL", "https://m/k/%s/%s/%s.sha256?sig=2");
      tree = with(tree, "Downloads.Kubernetes.SHA256.kubelet", "0".repeat(64));
      assertThat(violations(tree)).isEmpty();
    }

    @Test
    void rejectsAChecksumUrlThatAPinnedDigestLeavesWithoutEffect() {
      var tree = with(tokenTree(), "Downloads.Crictl.SHA256URL", "https://m/crictl.sha256");
      assertOnlyViolation(
          with(tree, "Downloads.Crictl.SHA256", "0".repeat(64)),
          "Downloads.Crictl.SHA256URL",
          "is never read: the pinned Downloads.Crictl.SHA256 wins; set one of them");
      tree = with(tokenTree(), "Downloads.Kubernetes.SHA256URL", "https://m/%s/%s/%s.sha256");
      for (String binary : List.of("kubelet", "kubectl", "kube-proxy")) {
        tree = with(tree, "Downloads.Kubernetes.SHA256." + binary, "0".repeat(64));
      }
      assertOnlyViolation(
          tree,
          "Downloads.Kubernetes.SHA256URL",
          "is never read: the pinned Downloads.Kubernetes.SHA256 wins; set one of them");
    }

    @Test
    void acceptsPinnedDigestsAndAnExplicitOptOutOfVerification() {
      String hex = "0123456789abcdef".repeat(4);
      var tree =
          with(tokenTree(), "Downloads.Containerd.SHA256", hex.toUpperCase(java.util.Locale.ROOT));
      tree = with(tree, "Downloads.Kubernetes.SHA256.kubelet", hex);
      tree = with(tree, "Downloads.Kubernetes.SHA256.kube-proxy", hex);
      tree = with(tree, "Downloads.Runc.AllowUnverified", true);
      assertThat(violations(tree)).isEmpty();
    }

    @Test
    void rejectsAPinnedDigestThatIsNotASha256() {
      assertOnlyViolation(
          with(tokenTree(), "Downloads.Containerd.SHA256", "abc123"),
          "Downloads.Containerd.SHA256",
          "must be a SHA-256 digest: 64 hex characters, got 'abc123'");
      assertOnlyViolation(
          with(tokenTree(), "Downloads.Kubernetes.SHA256.kubectl", "sha256:" + "0".repeat(64)),
          "Downloads.Kubernetes.SHA256.kubectl",
          "must be a SHA-256 digest: 64 hex characters, got 'sha256:" + "0".repeat(64) + "'");
    }

    @Test
    void rejectsAnAttestUrlThatIsNotAUrl() {
      assertOnlyViolation(
          with(tokenTree(), "Attest.URL", "pxe.example.com"),
          "Attest.URL",
          "must be an http or https URL, got 'pxe.example.com'");
    }
  }
}
