package dev.noneops.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random sequences of durable and careless file operations, then a crash: what a durable call
 * did is exactly what survives, and careless changes never leak into names nobody synced.
 */
class DurabilityPropertiesTest {
  private static final Path DIR = Path.of("/var/lib/prop");

  /** One file operation on one of a few names. */
  record Op(String kind, String name, String content) {}

  @Provide
  Arbitrary<List<Op>> operations() {
    Arbitrary<String> kinds =
        Arbitraries.of("writeDurably", "removeDurably", "writeVolatile", "delete", "syncDirectory");
    Arbitrary<String> names = Arbitraries.of("a", "b", "c");
    Arbitrary<String> contents = Arbitraries.strings().alpha().ofMaxLength(4);
    return Combinators.combine(kinds, names, contents).as(Op::new).list().ofMaxSize(25);
  }

  @Property(tries = 200)
  void whatDurableCallsDidSurvivesACrash(@ForAll("operations") List<Op> ops) throws IOException {
    SimulatedHost host = SimulatedHost.create();
    host.fs().seedDirectory(DIR, 0755);
    HostFiles files = host.ports().files();
    Map<String, String> durable = new HashMap<>();
    Set<String> uncertain = new HashSet<>();
    for (Op op : ops) {
      Path p = DIR.resolve(op.name());
      boolean present = files.exists(p);
      switch (op.kind()) {
        case "writeDurably" -> {
          files.writeDurably(p, op.content(), 0644);
          durable.put(op.name(), op.content());
          uncertain.remove(op.name());
        }
        case "removeDurably" -> {
          if (present) {
            files.removeDurably(p);
            durable.remove(op.name());
            uncertain.remove(op.name());
          }
        }
        case "writeVolatile" -> {
          host.fs().writeVolatile(p, op.content().getBytes(StandardCharsets.UTF_8), 0644);
          uncertain.add(op.name());
        }
        case "delete" -> {
          if (present) {
            files.delete(p);
            uncertain.add(op.name());
          }
        }
        default -> {
          files.syncDirectory(DIR);
          for (String name : uncertain.stream().toList()) {
            boolean exists = files.exists(DIR.resolve(name));
            if (!exists) {
              durable.remove(name);
              uncertain.remove(name);
            }
          }
        }
      }
    }
    host.crash();
    for (String name : List.of("a", "b", "c")) {
      Path p = DIR.resolve(name);
      Optional<String> after =
          files.exists(p) ? Optional.of(files.readString(p)) : Optional.empty();
      if (!uncertain.contains(name)) {
        assertThat(after)
            .as("%s after %s", name, ops)
            .isEqualTo(Optional.ofNullable(durable.get(name)));
      } else if (!durable.containsKey(name)) {
        assertThat(after.orElse(""))
            .as("%s was never written durably (%s)", name, ops)
            .isEmpty();
      }
    }
    assertThat(host.tempFiles(DIR)).isEmpty();
  }
}
