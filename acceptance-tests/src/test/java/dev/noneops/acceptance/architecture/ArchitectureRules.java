package dev.noneops.acceptance.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import dev.noneops.core.NoneopsException;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The module boundaries as ArchUnit rules: the pure domain reaches the host only through ports,
 * adapters see only ports, only the CLI's wiring package sees everything, the testkit's simulated
 * host sees only ports and the JDK, the contract suites only ports and the test framework, and
 * nothing but the demo sees the demo.
 */
final class ArchitectureRules {
  static final String PORTS = "dev.noneops.ports..";
  static final String CORE = "dev.noneops.core..";
  static final String DAEMON = "dev.noneops.daemon..";
  static final String SYSTEMD_ADAPTER = "dev.noneops.systemd..";
  static final String HOSTFS_ADAPTER = "dev.noneops.hostfs..";
  static final String KUBERNETES_ADAPTER = "dev.noneops.kubernetes..";
  static final String METRICS_ADAPTER = "dev.noneops.metrics..";
  static final String CLI = "dev.noneops.cli..";
  static final String CLI_WIRING = "dev.noneops.cli.wiring..";
  static final String TESTKIT = "dev.noneops.testkit..";
  static final String TESTKIT_CONTRACTS = "dev.noneops.testkit.contract..";
  static final String TESTKIT_FIXTURES = "dev.noneops.testkit.fixtures..";
  static final String DEMO = "dev.noneops.demo..";

  /**
   * The classes of the module {@code testkit}, {@code SimulatedHost} and its parts: all of
   * {@code dev.noneops.testkit} but the fixtures' and the contract suites' packages.
   */
  static final DescribedPredicate<JavaClass> IN_THE_SIMULATED_HOST = resideInAPackage(TESTKIT)
      .and(resideOutsideOfPackages(TESTKIT_FIXTURES, TESTKIT_CONTRACTS))
      .as("reside in the simulated host's packages (" + TESTKIT + " but not " + TESTKIT_FIXTURES
          + " and not " + TESTKIT_CONTRACTS + ")");

  private static final String[] INFRASTRUCTURE_LIBRARIES = {
    "org.freedesktop..",
    "jnr..",
    "com.kenai..",
    "picocli..",
    "io.fabric8..",
    "tools.jackson..",
    "io.vertx..",
    "io.prometheus..",
  };

  private ArchitectureRules() {}

  static final ArchRule PURE_CODE_SEES_NO_ADAPTER = noClasses()
      .that()
      .resideInAnyPackage(CORE, DAEMON, PORTS)
      .should()
      .dependOnClassesThat()
      .resideInAnyPackage(
          SYSTEMD_ADAPTER, HOSTFS_ADAPTER, KUBERNETES_ADAPTER, METRICS_ADAPTER, CLI, TESTKIT)
      .because("core, the daemon and ports reach the host only through port interfaces");

  static final ArchRule PURE_CODE_SEES_NO_INFRASTRUCTURE_LIBRARY = noClasses()
      .that()
      .resideInAnyPackage(CORE, DAEMON, PORTS)
      .should()
      .dependOnClassesThat()
      .resideInAnyPackage(INFRASTRUCTURE_LIBRARIES)
      .because(
          "D-Bus, jnr, picocli, the Kubernetes client and the Prometheus client belong to the adapters");

  static final ArchRule PORTS_DEPEND_ON_THE_JDK_ONLY = noClasses()
      .that()
      .resideInAPackage(PORTS)
      .should()
      .dependOnClassesThat()
      .resideOutsideOfPackages(PORTS, "java..")
      .because("ports are the contract, with no library in it");

  static final ArchRule CORE_DOES_NO_IO_OF_ITS_OWN = noClasses()
      .that()
      .resideInAnyPackage(CORE, DAEMON)
      .should()
      .dependOnClassesThat()
      .belongToAnyOf(
          java.io.File.class,
          java.io.FileInputStream.class,
          java.io.FileOutputStream.class,
          java.io.RandomAccessFile.class,
          java.nio.file.Files.class,
          java.nio.channels.FileChannel.class,
          ProcessBuilder.class,
          java.net.Socket.class,
          java.net.ServerSocket.class,
          java.net.DatagramSocket.class,
          java.net.URLConnection.class,
          java.net.http.HttpClient.class)
      .orShould()
      .accessField(System.class, "out")
      .orShould()
      .accessField(System.class, "err")
      .orShould()
      .accessField(System.class, "in")
      .orShould()
      .callMethod(System.class, "exit", int.class)
      .orShould()
      .callMethod(Runtime.class, "exec", String.class)
      .orShould()
      .callMethodWhere(threadSleep())
      .because(
          "core and the daemon do no I/O of their own: files, processes, sockets, the console and time go through ports");

  static final ArchRule ADAPTERS_DEPEND_ON_PORTS_ONLY = noClasses()
      .that()
      .resideInAnyPackage(SYSTEMD_ADAPTER, HOSTFS_ADAPTER, KUBERNETES_ADAPTER, METRICS_ADAPTER)
      .should()
      .dependOnClassesThat()
      .resideInAnyPackage(CORE, DAEMON, CLI, TESTKIT)
      .because("an adapter implements ports and knows nothing of the domain");

  static final ArchRule ADAPTERS_DO_NOT_SEE_EACH_OTHER_SYSTEMD = noClasses()
      .that()
      .resideInAPackage(SYSTEMD_ADAPTER)
      .should()
      .dependOnClassesThat()
      .resideInAnyPackage(HOSTFS_ADAPTER, KUBERNETES_ADAPTER);

  static final ArchRule ADAPTERS_DO_NOT_SEE_EACH_OTHER_HOSTFS = noClasses()
      .that()
      .resideInAPackage(HOSTFS_ADAPTER)
      .should()
      .dependOnClassesThat()
      .resideInAnyPackage(SYSTEMD_ADAPTER, KUBERNETES_ADAPTER, METRICS_ADAPTER);

  static final ArchRule METRICS_ADAPTER_SEES_PORTS_AND_THE_PROMETHEUS_CLIENT_ONLY = classes()
      .that()
      .resideInAPackage(METRICS_ADAPTER)
      .should()
      .onlyDependOnClassesThat()
      .resideInAnyPackage(METRICS_ADAPTER, PORTS, "java..", "io.prometheus..", "org.slf4j..")
      .because("the metrics adapter implements the AgentMetrics port with the Prometheus client"
          + " and nothing else");

  static final ArchRule KUBERNETES_ADAPTER_SEES_PORTS_AND_FABRIC8_ONLY = classes()
      .that()
      .resideInAPackage(KUBERNETES_ADAPTER)
      .should()
      .onlyDependOnClassesThat()
      .resideInAnyPackage(KUBERNETES_ADAPTER, PORTS, "java..", "io.fabric8..")
      .because("the Kubernetes adapter implements the Machine port over fabric8 and nothing else");

  static final ArchRule ONLY_WIRING_SEES_THE_ADAPTERS = noClasses()
      .that()
      .resideInAPackage(CLI)
      .and()
      .resideOutsideOfPackage(CLI_WIRING)
      .should()
      .dependOnClassesThat()
      .resideInAnyPackage(SYSTEMD_ADAPTER, HOSTFS_ADAPTER, KUBERNETES_ADAPTER, METRICS_ADAPTER)
      .because(
          "the CLI's commands are thin shells over core; only its wiring package composes the real adapters");

  static final ArchRule CORE_FAILURES_SHARE_ONE_ROOT = classes()
      .that()
      .resideInAnyPackage(CORE, DAEMON)
      .and()
      .areAssignableTo(Throwable.class)
      .should()
      .beAssignableTo(NoneopsException.class)
      .because(
          "a caller catches every failure of core as its own type under one root, with the task path where it happened");

  static final ArchRule TESTKIT_SEES_PORTS_AND_THE_JDK_ONLY = classes()
      .that(IN_THE_SIMULATED_HOST)
      .should()
      .onlyDependOnClassesThat(IN_THE_SIMULATED_HOST.or(resideInAnyPackage(PORTS, "java..")))
      .because("a suite gets the simulated host without core, the adapters or a test framework");

  static final ArchRule CONTRACTS_SEE_PORTS_AND_THE_TEST_FRAMEWORK_ONLY = classes()
      .that()
      .resideInAPackage(TESTKIT_CONTRACTS)
      .should()
      .onlyDependOnClassesThat()
      .resideInAnyPackage(
          TESTKIT_CONTRACTS, PORTS, "java..", "org.junit..", "org.assertj..", "org.opentest4j..")
      .because(
          "a contract suite states what any implementation of a port must do, simulated or real");

  static final ArchRule THE_PRODUCT_SEES_NO_TESTKIT = noClasses()
      .that()
      .resideInAnyPackage(
          CORE, DAEMON, PORTS, SYSTEMD_ADAPTER, HOSTFS_ADAPTER, KUBERNETES_ADAPTER, CLI)
      .should()
      .dependOnClassesThat()
      .resideInAnyPackage(TESTKIT, DEMO)
      .because("the testkit and the demo are built on the product, never the other way");

  static final ArchRule NOTHING_BUT_THE_DEMO_SEES_THE_DEMO = noClasses()
      .that()
      .resideOutsideOfPackage(DEMO)
      .should()
      .dependOnClassesThat()
      .resideInAPackage(DEMO)
      .because("the demo is an entry point of its own, not a library");

  static final ArchRule INTERNAL_PACKAGES_STAY_IN_THEIR_MODULE = classes()
      .that()
      .resideInAPackage("..internal..")
      .should(beUsedOnlyFromTheirOwnModule())
      .because(
          "a module's internal packages are not its API: another module sees only what it exports");

  static final ArchRule NO_CYCLES_BETWEEN_MODULES =
      slices().matching("dev.noneops.(*)..").should().beFreeOfCycles();

  static final ArchRule NO_CYCLES_INSIDE_CORE =
      slices().matching("dev.noneops.core.(*)..").should().beFreeOfCycles();

  /** Core's node API: what a caller of {@code core} names. */
  static final String CORE_NODE_API = "dev.noneops.core.node";

  /**
   * The feature packages behind the node's API, lowest first: each may use only those before it,
   * so they read in this order and none can reach back up.
   */
  static final List<String> CORE_NODE_FEATURES = List.of(
      "task",
      "state",
      "files",
      "version",
      "render",
      "stack",
      "teardown",
      "phases",
      "preflight",
      "upgrade");

  /**
   * What the feature packages may name of the API package: the settings a caller passes in, the
   * exceptions a caller catches, and the words a teardown reports in (what it did, why it kept). Never {@code Node}, {@code Teardown}, {@code NodeBackend} or
   * a result: those are made in the API package of what the features return.
   */
  static final Set<String> API_TYPES_FEATURES_MAY_NAME = Set.of(
      "Params",
      "Overrides",
      "AgentSetup",
      "TimeoutOptions",
      "ClusterCheck",
      "LockWait",
      "TeardownOptions",
      "UpgradeOptions",
      "NodeRoot",
      "TeardownAction",
      "KeepReason");

  static final ArchRule CORE_NODE_FEATURES_FORM_A_LINE = classes()
      .that()
      .resideInAPackage(CORE_NODE_API + ".internal..")
      .should(useOnlyFeaturePackagesBeforeTheirOwn())
      .because("the feature packages are a line: " + String.join(" < ", CORE_NODE_FEATURES)
          + "; a newcomer reads them bottom up and no change can make a cycle");

  static final ArchRule FEATURES_NAME_NO_ENTRY_POINT_AND_NO_RESULT = noClasses()
      .that()
      .resideInAPackage(CORE_NODE_API + ".internal..")
      .should()
      .dependOnClassesThat(DescribedPredicate.describe(
          "are Node, Teardown, NodeBackend or a result of the API package",
          (JavaClass c) -> c.getPackageName().equals(CORE_NODE_API)
              && !outermost(c).isAssignableTo(Throwable.class)
              && !API_TYPES_FEATURES_MAY_NAME.contains(outermost(c).getSimpleName())))
      .because("the API package is built on the features, never the other way: they report"
          + " their own outcomes and the API makes its results of them");

  private static JavaClass outermost(JavaClass c) {
    JavaClass outer = c;
    while (outer.getEnclosingClass().isPresent()) {
      outer = outer.getEnclosingClass().get();
    }
    return outer;
  }

  private static ArchCondition<JavaClass> useOnlyFeaturePackagesBeforeTheirOwn() {
    return new ArchCondition<>("use only feature packages before their own") {
      @Override
      public void check(JavaClass origin, ConditionEvents events) {
        int own = featureIndex(origin);
        for (Dependency d : origin.getDirectDependenciesFromSelf()) {
          int target = featureIndex(d.getTargetClass());
          if (own < 0 || target < 0 || target <= own) {
            continue;
          }
          events.add(SimpleConditionEvent.violated(
              d,
              d.getDescription() + " (" + CORE_NODE_FEATURES.get(own) + " uses "
                  + CORE_NODE_FEATURES.get(target) + ", which comes after it)"));
        }
        if (own < 0 && origin.getPackageName().startsWith(CORE_NODE_API + ".internal.")) {
          events.add(SimpleConditionEvent.violated(
              origin, origin.getName() + " is in no feature package of " + CORE_NODE_FEATURES));
        }
      }
    };
  }

  static int featureIndex(JavaClass c) {
    String prefix = CORE_NODE_API + ".internal.";
    String pkg = c.getPackageName();
    if (!pkg.startsWith(prefix)) {
      return -1;
    }
    String feature = pkg.substring(prefix.length()).split("\\.")[0];
    return CORE_NODE_FEATURES.indexOf(feature);
  }

  private static final Pattern MODULE_DIRECTORY = Pattern.compile("/([^/!]+)/target[^/]*/");

  /** The module a class was built by: the directory above the {@code target} its class file or jar is in. */
  static String moduleOf(JavaClass type) {
    String uri = type.getSource().map(source -> source.getUri().toString()).orElse("");
    Matcher m = MODULE_DIRECTORY.matcher(uri);
    String module = "";
    while (m.find()) {
      module = m.group(1);
    }
    return module.isEmpty() ? "(unknown: " + uri + ")" : module;
  }

  private static ArchCondition<JavaClass> beUsedOnlyFromTheirOwnModule() {
    return new ArchCondition<>("be used only by classes of their own module") {
      @Override
      public void check(JavaClass internal, ConditionEvents events) {
        String home = moduleOf(internal);
        for (Dependency use : internal.getDirectDependenciesToSelf()) {
          String user = moduleOf(use.getOriginClass());
          if (!user.equals(home)) {
            events.add(SimpleConditionEvent.violated(
                use,
                use.getDescription() + " (module " + user + " uses an internal class of module "
                    + home + ")"));
          }
        }
      }
    };
  }

  private static DescribedPredicate<JavaAccess<?>> threadSleep() {
    return DescribedPredicate.describe(
        "Thread.sleep",
        access -> access.getTargetOwner().isEquivalentTo(Thread.class)
            && access.getName().equals("sleep"));
  }
}
