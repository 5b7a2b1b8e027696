package dev.noneops.acceptance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.noneops.cli.output.Json;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.cli.SimCli.Run;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@code noneops plan} on a simulated host: it lists the files, units, starts, restarts and
 * downloads the next bootstrap or apply would bring, and changes nothing.
 */
class CliPlanOnSimulatedHostTest {
  private static final Path CONFIG = SimCli.CONFIG;
  private static final ConfigJson BASE = ConfigJson.of("1.31.4").withContainerd("1.7.22");
  private static final String DROP_IN_DIR = "/etc/systemd/system/kubelet.service.d/";
  private static final String CONTAINERD_CONFIG = "/etc/containerd/config.toml";

  private final SimCli cli = new SimCli(SimulatedHost.create());

  @Test
  void onACleanHostPlanListsEveryFileBootstrapWritesAndChangesNothing() throws Exception {
    String version = cli.configure(CONFIG, BASE.json());
    FileTreeSnapshot clean = cli.host().snapshot();
    long mutatingBefore = cli.host().journal().mutatingCallCount();

    Run plan = cli.run("plan", "--json");

    assertThat(plan.exitCode()).as(plan.err()).isZero();
    assertThat(cli.host().snapshot()).isEqualTo(clean);
    assertThat(cli.host().journal().mutatingCallCount())
        .as(cli.host().journal().toString())
        .isEqualTo(mutatingBefore);
    JsonNode doc = json(plan);
    assertThat(doc.get("action").asText()).isEqualTo("bootstrap");
    assertThat(doc.get("targetVersion").asText()).isEqualTo(version);
    assertThat(doc.get("changed")).isEmpty();
    assertThat(doc.get("removed")).isEmpty();
    assertThat(strings(doc.get("starts")))
        .containsExactly("localdns.service", "containerd.service", "kubelet.service");
    assertThat(doc.get("restarts")).isEmpty();
    assertThat(doc.get("downloads")).isNotEmpty();
    assertThat(strings(doc.get("units")))
        .contains(
            "/etc/systemd/system/kubelet.service",
            "/etc/systemd/system/containerd.service",
            "/etc/systemd/system/localdns.service");
    assertThat(strings(doc.get("notes"))).anyMatch(n -> n.contains("CNI plugin links"));

    assertThat(cli.run("bootstrap").exitCode()).isZero();

    List<String> written = new ArrayList<>();
    FileTreeSnapshot booted = cli.host().snapshot();
    for (String line : booted.diff(clean)) {
      String path = line.substring(2).split(" ")[0];
      if (!inVersionTree(path)
          && !path.startsWith("/opt/cni")
          && !isEnablement(path)
          && !isAppliedConfig(path)) {
        written.add(path);
      }
    }
    assertThat(written)
        .as("bootstrap wrote files besides the version tree and the CNI links")
        .isNotEmpty();
    assertThat(new TreeSet<>(strings(doc.get("created"))))
        .containsAll(written)
        .contains(
            "/etc/containerd/config.toml",
            "/etc/unbounded/localdns/Corefile",
            cli.layout().current().toString());
    assertThat(booted.paths())
        .as("every planned creation happened")
        .containsAll(strings(doc.get("created")));
  }

  @Test
  void afterBootstrapALabelChangePlansTheKubeletDropInAndAKubeletRestart() throws Exception {
    cli.configure(CONFIG, BASE.json());
    assertThat(cli.run("bootstrap").exitCode()).isZero();
    cli.configure(
        CONFIG,
        BASE.json().replace("\"example.com/pool\": \"demo\"", "\"example.com/pool\": \"batch\""));
    FileTreeSnapshot before = cli.host().snapshot();
    long mutatingBefore = cli.host().journal().mutatingCallCount();

    Run plan = cli.run("plan", "--json");

    assertThat(plan.exitCode()).as(plan.err()).isZero();
    assertThat(cli.host().snapshot()).isEqualTo(before);
    assertThat(cli.host().journal().mutatingCallCount()).isEqualTo(mutatingBefore);
    JsonNode doc = json(plan);
    assertThat(doc.get("action").asText()).isEqualTo("apply");
    assertThat(doc.get("configurationChanged").asBoolean()).isTrue();
    assertThat(doc.get("created")).isEmpty();
    assertThat(doc.get("removed")).isEmpty();
    assertThat(doc.get("downloads")).isEmpty();
    List<String> units = strings(doc.get("units"));
    assertThat(units).hasSize(1);
    assertThat(units.get(0)).startsWith(DROP_IN_DIR);
    assertThat(strings(doc.get("changed")))
        .contains(units.get(0))
        .allMatch(p -> p.equals(units.get(0))
            || p.endsWith("ownership.json")
            || !p.startsWith("/etc/systemd")
                && !p.startsWith("/etc/containerd")
                && !p.startsWith("/etc/kubernetes"));
    assertThat(doc.get("starts")).isEmpty();
    assertThat(strings(doc.get("restarts"))).containsExactly("kubelet.service");
  }

  @Test
  void aChangedContainerdConfigPlansItAndRestartsContainerdThenKubelet() throws Exception {
    cli.configure(CONFIG, BASE.json());
    assertThat(cli.run("bootstrap").exitCode()).isZero();
    write(CONTAINERD_CONFIG, "version = 2\n# edited by hand\n");

    Run plan = cli.run("plan");

    assertThat(plan.exitCode()).as(plan.err()).isZero();
    assertThat(plan.out())
        .contains("action:   apply")
        .contains("change:   " + CONTAINERD_CONFIG)
        .doesNotContain("unit:")
        .doesNotContain("create:")
        .doesNotContain("start:    ");
    assertThat(plan.out().lines().filter(l -> l.startsWith("restart:")))
        .containsExactly("restart:  containerd.service", "restart:  kubelet.service");
  }

  @Test
  void aNewContainerdVersionPlansAnUpgradeWithItsDownloadsAndAFullRestart() throws Exception {
    String v1 = cli.configure(CONFIG, BASE.json());
    assertThat(cli.run("bootstrap").exitCode()).isZero();
    String v2 = cli.configure(CONFIG, BASE.withContainerd("1.7.23").json());
    FileTreeSnapshot before = cli.host().snapshot();

    JsonNode doc = json(cli.run("plan", "--json"));

    assertThat(cli.host().snapshot()).isEqualTo(before);
    assertThat(doc.get("action").asText()).isEqualTo("upgrade");
    assertThat(doc.get("activeVersion").asText()).isEqualTo(v1);
    assertThat(doc.get("targetVersion").asText()).isEqualTo(v2);
    assertThat(doc.get("targetInstalled").asBoolean()).isFalse();
    assertThat(doc.get("downloads")).isNotEmpty();
    assertThat(strings(doc.get("changed"))).contains(cli.layout().current().toString());
    assertThat(strings(doc.get("restarts")))
        .containsExactly("localdns.service", "containerd.service", "kubelet.service");
  }

  @Test
  void afterAnApplyThePlanIsEmpty() throws Exception {
    cli.configure(CONFIG, BASE.json());
    assertThat(cli.run("bootstrap").exitCode()).isZero();

    JsonNode doc = json(cli.run("plan", "--json"));

    assertThat(doc.get("schemaVersion").asInt()).isEqualTo(Json.SCHEMA_VERSION);
    assertThat(doc.get("command").asText()).isEqualTo("plan");
    for (String list :
        List.of("created", "changed", "removed", "units", "starts", "restarts", "downloads")) {
      assertThat(doc.get(list)).as(list).isEmpty();
    }
    assertThat(strings(doc.get("notes"))).anyMatch(n -> n.contains("nothing to do"));
  }

  /** The installed version and the directories holding it: what the planned downloads become. */
  private boolean inVersionTree(String path) {
    String root = cli.layout().root() + "/";
    return path.startsWith(root) || root.startsWith(path + "/");
  }

  /** systemd's own links from enabling the units, which the planned starts include. */
  private static boolean isEnablement(String path) {
    return path.startsWith("/etc/systemd/system/multi-user.target.wants");
  }

  /** The applied configuration the CLI records after success, which plan reports as configurationChanged. */
  private static boolean isAppliedConfig(String path) {
    return path.contains("-applied-config.json");
  }

  private void write(String path, String content) {
    try {
      cli.host()
          .ports()
          .files()
          .writeDurably(
              Path.of(path),
              new java.io.ByteArrayInputStream(content.getBytes(StandardCharsets.UTF_8)),
              0644);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  private static JsonNode json(Run run) throws Exception {
    assertThat(run.out()).as("stdout of a --json run (stderr: %s)", run.err()).startsWith("{");
    return Json.MAPPER.readTree(run.out());
  }
}
