package dev.noneops.acceptance.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.noneops.cli.output.Json;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.layout.VersionNames;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.cli.SimCli.Run;
import dev.noneops.testkit.gate.SimulatedCrash;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An agent killed while {@code prune} removes the previous version: {@code versions} reports what
 * is really on disk, {@code recover} finishes the removal, and afterwards every directory of the
 * layout is a complete version that {@code verify} accepts.
 */
class InterruptedPruneOnSimulatedHostTest {
  private static final ConfigJson BASE = ConfigJson.of("1.31.4").withContainerd("1.7.22");

  private final SimCli cli = new SimCli(SimulatedHost.create());
  private String previous;

  @BeforeEach
  void upgradedWithoutPruning() {
    previous = cli.configure(SimCli.CONFIG, BASE.json());
    assertThat(cli.run("bootstrap").exitCode()).isZero();
    cli.configure(SimCli.CONFIG, BASE.withContainerd("1.7.23").json());
    Run up = cli.run("upgrade", "--no-prune");
    assertThat(up.exitCode()).as(up.err()).isZero();
    assertThat(onDisk(cli.layout().versionDir(previous))).isPresent();
  }

  @ParameterizedTest(name = "killed at the prune''s mutating call {0}")
  @ValueSource(ints = {1, 2, 3, 5, 8})
  void aPruneKilledMidwayIsReportedAsItIsOnDiskAndFinishedByRecover(int call) throws Exception {
    cli.host().faults().crashAtMutatingCall(call);
    assertThatThrownBy(() -> cli.run("prune")).isInstanceOf(SimulatedCrash.class);
    cli.host().crash();
    cli.host().systemd().bootEnabledUnits();

    JsonNode versions = json(cli.run("versions", "--json"));
    long reportedFiles = 0;
    long reportedBytes = 0;
    for (JsonNode v : versions.get("versions")) {
      reportedFiles += v.get("files").asLong();
      reportedBytes += v.get("bytes").asLong();
    }
    Usage disk = versionFilesOnDisk();
    assertThat(reportedFiles)
        .as("files versions reports, against the disk: " + versions)
        .isEqualTo(disk.files);
    assertThat(reportedBytes).as("bytes versions reports, against the disk").isEqualTo(disk.bytes);

    Run recover = cli.run("recover", "--json");
    assertThat(recover.exitCode()).as(recover.err()).isZero();

    for (String name : layoutDirectories()) {
      assertThat(isVersion(name)).as("layout directory " + name).isTrue();
      assertThat(onDisk(cli.layout().manifest(name)))
          .as("every version left is complete: " + name)
          .isPresent();
    }
    Run verify = cli.run("verify");
    assertThat(verify.exitCode()).as(verify.out()).isZero();
    assertThat(json(cli.run("versions", "--json")).get("versions"))
        .allSatisfy(v -> assertThat(v.get("complete").asBoolean()).isTrue());
    Run prune = cli.run("prune");
    assertThat(prune.exitCode()).as(prune.err()).isZero();
    assertThat(layoutDirectories()).containsExactly(cli.activeVersion().orElseThrow());
  }

  /** Whether {@code name} is a version directory's, as opposed to the layout's bookkeeping (the saved configuration). */
  private static boolean isVersion(String name) {
    return !name.equals(Layout.CONFSNAP) && VersionNames.isSafe(name);
  }

  private record Usage(long files, long bytes) {}

  /** The regular files below the layout's directories other than the saved configuration, manifests aside. */
  private Usage versionFilesOnDisk() throws IOException {
    long files = 0;
    long bytes = 0;
    for (String name : layoutDirectories()) {
      if (name.equals(Layout.CONFSNAP)) {
        continue;
      }
      for (Path file : regularFiles(cli.layout().root().resolve(name))) {
        if (!file.equals(cli.layout().root().resolve(name).resolve(Layout.MANIFEST))) {
          files++;
          bytes += onDisk(file).orElseThrow().size();
        }
      }
    }
    return new Usage(files, bytes);
  }

  private List<String> layoutDirectories() throws IOException {
    List<String> out = new ArrayList<>();
    synchronized (cli.host().monitor()) {
      for (String name : cli.host().fs().list(cli.layout().root())) {
        Optional<FileMeta> meta = cli.host().fs().lstat(cli.layout().root().resolve(name));
        if (meta.isPresent() && meta.get().isDirectory()) {
          out.add(name);
        }
      }
    }
    return out;
  }

  private List<Path> regularFiles(Path dir) throws IOException {
    List<Path> out = new ArrayList<>();
    synchronized (cli.host().monitor()) {
      for (String name : cli.host().fs().list(dir)) {
        Path p = dir.resolve(name);
        FileMeta meta = cli.host().fs().lstat(p).orElseThrow();
        if (meta.isDirectory()) {
          out.addAll(regularFiles(p));
        } else if (meta.isRegularFile()) {
          out.add(p);
        }
      }
    }
    return out;
  }

  private Optional<FileMeta> onDisk(Path path) {
    synchronized (cli.host().monitor()) {
      try {
        return cli.host().fs().lstat(path);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private static JsonNode json(Run run) {
    try {
      return Json.MAPPER.readTree(run.out());
    } catch (IOException e) {
      throw new UncheckedIOException(run.out() + run.err(), e);
    }
  }
}
