package dev.noneops.core.config;

import static dev.noneops.core.config.ConfigFixtures.config;
import static dev.noneops.core.config.ConfigFixtures.execTree;
import static dev.noneops.core.config.ConfigFixtures.tokenTree;
import static dev.noneops.core.config.ConfigFixtures.with;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class AgentConfigJsonTest {

  @Test
  void appliedFormIsTwoSpaceIndentedWithDownloadsButNoAttestNorTrailingNewline() {
    var tree = with(tokenTree(), "Downloads.Containerd.Version", "2.1.0");
    tree = with(tree, "Attest.URL", "http://pxe");
    String applied = new String(AgentConfigJson.applied(config(tree)), StandardCharsets.UTF_8);

    assertThat(applied).isEqualTo("""
        {
          "MachineName": "worker-1",
          "Cluster": {
            "CaCertBase64": "%s",
            "ClusterDNS": "10.0.0.10",
            "Version": "1.31.2"
          },
          "Kubelet": {
            "ApiServer": "https://api.example.com:6443",
            "Auth": {
              "BootstrapToken": "%s"
            },
            "Labels": {
              "example.com/pool": "blue",
              "tier": ""
            },
            "RegisterWithTaints": [
              "dedicated=infra:NoSchedule"
            ]
          },
          "CRI": {},
          "CNI": {},
          "LocalDNS": {
            "BindAddress": "169.254.20.10",
            "InterfaceName": "localdns0",
            "ClusterDomain": "cluster.local"
          },
          "Downloads": {
            "Containerd": {
              "Version": "2.1.0"
            }
          }
        }""".formatted(ConfigFixtures.CA_BASE64, ConfigFixtures.TOKEN));
  }

  @Test
  void appliedFormReadsBackAsTheSameConfigurationWithItsDownloadsButWithoutAttest() {
    for (AgentConfig c :
        new AgentConfig[] {ConfigFixtures.tokenConfig(), ConfigFixtures.execConfig()}) {
      AgentConfig withExtras = c.withDownloads(new AgentConfig.Downloads(
          AgentConfig.Download.NONE,
          new AgentConfig.Download("", "", "2.1.0"),
          AgentConfig.Download.NONE,
          AgentConfig.Download.NONE,
          AgentConfig.Download.NONE,
          AgentConfig.Download.NONE));

      AgentConfig readBack = AgentConfigParser.parse(AgentConfigJson.applied(withExtras));

      assertThat(readBack).isEqualTo(withExtras);
    }
  }

  @Test
  void pinnedDigestsAndTheOptOutOfVerificationAreKeptWithDigestsInLowerCase() {
    String hex = "0123456789ABCDEF".repeat(4);
    var tree = ConfigFixtures.with(ConfigFixtures.tokenTree(), "Downloads.Containerd.SHA256", hex);
    tree = ConfigFixtures.with(tree, "Downloads.Kubernetes.SHA256.kubelet", hex);
    tree = ConfigFixtures.with(tree, "Downloads.CNI.AllowUnverified", true);
    tree = ConfigFixtures.with(tree, "Downloads.Crictl.AllowUnverified", false);
    AgentConfig config = ConfigFixtures.config(tree);

    String lower = hex.toLowerCase(java.util.Locale.ROOT);
    assertThat(AgentConfigJson.canonicalString(config))
        .contains("\"Downloads\":{\"CNI\":{\"AllowUnverified\":true},\"Containerd\":{\"SHA256\":\""
            + lower + "\"}," + "\"Kubernetes\":{\"SHA256\":{\"kubelet\":\"" + lower + "\"}}}");
    assertThat(AgentConfigParser.parse(AgentConfigJson.applied(config))).isEqualTo(config);
    assertThat(ConfigDigest.of(config))
        .isNotEqualTo(ConfigDigest.of(ConfigFixtures.config(ConfigFixtures.tokenTree())));
  }

  @Test
  void theChecksumsOwnUrlIsKeptInTheAppliedConfigAndItsDigest() {
    AgentConfig config = ConfigFixtures.config(ConfigFixtures.with(
        ConfigFixtures.tokenTree(),
        "Downloads.Runc.SHA256URL",
        "https://m/runc/v%s/runc.sha256sum?sig=1"));

    assertThat(AgentConfigJson.canonicalString(config))
        .contains(
            "\"Downloads\":{\"Runc\":{\"SHA256URL\":\"https://m/runc/v%s/runc.sha256sum?sig=1\"}}");
    assertThat(AgentConfigParser.parse(AgentConfigJson.applied(config))).isEqualTo(config);
    assertThat(ConfigDigest.of(config))
        .isNotEqualTo(ConfigDigest.of(ConfigFixtures.config(ConfigFixtures.tokenTree())));
  }

  @Test
  void canonicalFormSortsKeysAndIgnoresFormattingAndKeyOrder() {
    AgentConfig a = config(tokenTree());
    AgentConfig b = AgentConfigParser.parse(
        ConfigFixtures.utf8("""
        {"OCIImage": "", "CNI": {}, "CRI": {},
         "Kubelet": {"RegisterWithTaints": ["dedicated=infra:NoSchedule"], "Labels": {"tier": "", "example.com/pool": "blue"},
                     "Auth": {"BootstrapToken": "%s"}, "ApiServer": "https://api.example.com:6443"},
         "Cluster": {"Version": "1.31.2", "ClusterDNS": "10.0.0.10", "CaCertBase64": "%s"},
         "MachineName": "worker-1", "LocalDNS": {"ClusterDomain": "cluster.local"}}
        """.formatted(ConfigFixtures.TOKEN, ConfigFixtures.CA_BASE64)));

    assertThat(AgentConfigJson.canonicalString(b)).isEqualTo(AgentConfigJson.canonicalString(a));
    assertThat(AgentConfigJson.canonicalString(a))
        .startsWith("{\"CNI\":{},\"CRI\":{},\"Cluster\":{\"CaCertBase64\":");
    assertThat(ConfigDigest.of(b)).isEqualTo(ConfigDigest.of(a));
  }

  @Test
  void digestIsTheSha256OfTheCanonicalForm() throws Exception {
    AgentConfig c = config(execTree());
    byte[] sha =
        java.security.MessageDigest.getInstance("SHA-256").digest(AgentConfigJson.canonical(c));

    assertThat(ConfigDigest.of(c).hex()).isEqualTo(java.util.HexFormat.of().formatHex(sha));
    assertThat(ConfigDigest.of(c).toString())
        .isEqualTo("sha256:" + ConfigDigest.of(c).hex());
  }

  @Test
  void digestCoversEveryPersistedSettingIncludingDownloadsButNotAttest() {
    ConfigDigest base = ConfigDigest.of(config(tokenTree()));

    assertThat(ConfigDigest.of(config(with(tokenTree(), "Kubelet.Labels.tier", "db"))))
        .isNotEqualTo(base);
    assertThat(ConfigDigest.of(config(with(tokenTree(), "Cluster.ClusterDNS", "10.0.0.11"))))
        .isNotEqualTo(base);
    assertThat(ConfigDigest.of(config(with(tokenTree(), "LocalDNS.BindAddress", "169.254.0.1"))))
        .isNotEqualTo(base);
    assertThat(ConfigDigest.of(config(with(tokenTree(), "CRI.Runc.Version", "1.2.0"))))
        .isNotEqualTo(base);
    assertThat(ConfigDigest.of(config(with(tokenTree(), "Downloads.Runc.Version", "1.2.0"))))
        .isNotEqualTo(base);
    assertThat(ConfigDigest.of(config(with(tokenTree(), "Attest.URL", "http://pxe"))))
        .isEqualTo(base);
  }

  @Test
  void digestOfTheAppliedFileEqualsTheDigestOfTheConfigurationItWasWrittenFrom() {
    AgentConfig c = config(with(tokenTree(), "Downloads.Crictl.Version", "1.31.1"));

    assertThat(ConfigDigest.of(AgentConfigParser.parse(AgentConfigJson.applied(c))))
        .isEqualTo(ConfigDigest.of(c));
  }
}
