package dev.noneops.benchmarks.micro;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AgentConfigParser;
import dev.noneops.core.config.VersionFor;
import dev.noneops.hostfs.mounts.MountInfoParser;
import dev.noneops.hostfs.nativeio.Syscalls;
import dev.noneops.hostfs.process.ProcProcessTable;
import dev.noneops.ports.mounts.MountEntry;
import dev.noneops.ports.process.ProcessDetail;
import dev.noneops.ports.process.ProcessInfo;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Throughput of {@link VersionFor}, configuration parse + validation, a 5,000-line mountinfo parse
 * and a {@code /proc} scan of 5,000 processes (a synthetic proc tree in a temporary directory, so
 * the figure does not depend on what else runs on the machine). The scan is measured twice, as its
 * callers use it: {@code procScan5000} identifies processes (exe, argv, cgroup), as teardown's shim
 * search and an upgrade's end of the pods do; {@code procScanWithMappedFiles5000} also reads every
 * {@code maps}, as pruning does. Run with {@code -prof gc} for the allocation rate.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {
      "--add-opens",
      "java.base/java.io=ALL-UNNAMED",
      "--add-opens",
      "java.base/sun.nio.ch=ALL-UNNAMED"
    })
public class MicroBenchmarks {
  static final int MOUNT_LINES = 5_000;
  static final int PROCESSES = 5_000;

  private AgentConfig config;
  private byte[] configJson;
  private String mountInfo;
  private Path procRoot;
  private ProcProcessTable procTable;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    configJson = ConfigJson.of("1.31.4")
        .withContainerd("1.7.24")
        .withRunc("1.2.4")
        .withDownloadsFrom("http://127.0.0.1:8080")
        .json()
        .getBytes(StandardCharsets.UTF_8);
    config = AgentConfigParser.parseAndValidate(configJson, "amd64");
    mountInfo = SyntheticHost.mountInfo(MOUNT_LINES);
    procRoot = Files.createTempDirectory("noneops-bench-proc-");
    SyntheticHost.procTree(procRoot, PROCESSES);
    procTable = new ProcProcessTable(procRoot, Syscalls.load());
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    try (Stream<Path> walk = Files.walk(procRoot)) {
      for (Path p : walk.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  @Benchmark
  public String versionFor() {
    return VersionFor.of(config, "amd64");
  }

  @Benchmark
  public AgentConfig configParseAndValidate() {
    return AgentConfigParser.parseAndValidate(configJson, "amd64");
  }

  @Benchmark
  public List<MountEntry> mountInfoParse5000() throws Exception {
    return MountInfoParser.parse(mountInfo);
  }

  @Benchmark
  public List<ProcessInfo> procScan5000() throws IOException {
    return procTable.list(Set.of());
  }

  @Benchmark
  public List<ProcessInfo> procScanWithMappedFiles5000() throws IOException {
    return procTable.list(Set.of(ProcessDetail.MAPPED_FILES));
  }
}
