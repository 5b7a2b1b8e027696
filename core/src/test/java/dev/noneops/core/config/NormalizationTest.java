package dev.noneops.core.config;

import static dev.noneops.core.config.ConfigFixtures.config;
import static dev.noneops.core.config.ConfigFixtures.tokenTree;
import static dev.noneops.core.config.ConfigFixtures.with;
import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.config.InvalidConfigException.ConfigViolation;
import org.junit.jupiter.api.Test;

class NormalizationTest {

  @Test
  void stripsOneLeadingVFromEveryVersion() {
    var tree = with(tokenTree(), "Cluster.Version", "v1.31.2");
    tree = with(tree, "CRI.Containerd.Version", "v2.1.0");
    tree = with(tree, "CRI.Runc.Version", "v1.2.0");
    tree = with(tree, "CNI.PluginVersion", "v1.6.0");
    tree = with(tree, "LocalDNS.Version", "v1.12.0");
    tree = with(tree, "Downloads.Crictl.Version", "v1.31.1");

    AgentConfig c = config(tree);

    assertThat(c.cluster().version()).isEqualTo("1.31.2");
    assertThat(c.cri()).isEqualTo(new AgentConfig.Cri("2.1.0", "1.2.0"));
    assertThat(c.cni().pluginVersion()).isEqualTo("1.6.0");
    assertThat(c.localDns().version()).isEqualTo("1.12.0");
    assertThat(c.downloads().crictl().version()).isEqualTo("1.31.1");
  }

  @Test
  void stripsOnlyAVThatStartsAVersionNumberSoNormalisingIsIdempotent() {
    AgentConfig c = config(with(tokenTree(), "Cluster.Version", "vv1.31.2"));

    assertThat(c.cluster().version()).isEqualTo("vv1.31.2");
    assertThat(ConfigValidator.violations(c, "amd64"))
        .containsExactly(new ConfigViolation(
            "Cluster.Version", "must be a semantic version such as 1.31.2, got 'vv1.31.2'"));
  }

  @Test
  void prependsHttpsToAnApiServerWithoutScheme() {
    assertThat(config(with(tokenTree(), "Kubelet.ApiServer", "10.1.2.3:6443"))
            .kubelet()
            .apiServer())
        .isEqualTo("https://10.1.2.3:6443");
    assertThat(config(with(tokenTree(), "Kubelet.ApiServer", "https://api:6443"))
            .kubelet()
            .apiServer())
        .isEqualTo("https://api:6443");
  }

  @Test
  void keepsAnHttpApiServerSoValidationRejectsItInsteadOfProducingHttpsHttp() {
    AgentConfig c = config(with(tokenTree(), "Kubelet.ApiServer", "http://api:6443"));

    assertThat(c.kubelet().apiServer()).isEqualTo("http://api:6443");
    assertThat(ConfigValidator.violations(c, "amd64"))
        .containsExactly(
            new ConfigViolation("Kubelet.ApiServer", "must use https, got 'http://api:6443'"));
  }

  @Test
  void fillsLocalDnsDefaultsButKeepsConfiguredValues() {
    assertThat(config(tokenTree()).localDns())
        .isEqualTo(new AgentConfig.LocalDns("", "169.254.20.10", "localdns0", "cluster.local"));
    assertThat(config(with(tokenTree(), "LocalDNS.BindAddress", "169.254.0.1"))
            .localDns()
            .bindAddress())
        .isEqualTo("169.254.0.1");
  }

  @Test
  void normalisingTwiceChangesNothing() {
    var tree = with(tokenTree(), "Cluster.Version", "v1.31.2");
    tree = with(tree, "Kubelet.ApiServer", "api:6443");
    AgentConfig once = config(tree);

    assertThat(once.normalized()).isEqualTo(once);
  }
}
