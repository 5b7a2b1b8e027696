package dev.noneops.acceptance.contract.real;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetList;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.crud.KubernetesCrudDispatcherException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * fabric8's mock API server in CRUD mode with the Eviction API added: CRUD mode stores and serves
 * objects but does not implement a pod's {@code eviction} subresource, nor the budget accounting
 * behind it. This dispatcher answers {@code POST /api/v1/namespaces/<ns>/pods/<name>/eviction} as
 * the API server does: {@code 404} for a pod that does not exist, {@code 429} when a
 * PodDisruptionBudget of the namespace selecting the pod ({@code matchLabels}) has {@code
 * status.disruptionsAllowed} 0, else one disruption of every such budget used up and the pod
 * deleted. CRUD mode also ignores no field selector it does not know but matches nothing with it:
 * a pod list with {@code fieldSelector=spec.nodeName=<node>} (a drain's) is answered here with the
 * pods bound to that node. And CRUD mode applies a JSON merge patch by merging arrays into the
 * stored ones (a status's {@code conditions} would keep every old entry beside the new one) where
 * RFC 7386, and the API server, replace them: merge patches are applied here as RFC 7386 says.
 * CRUD mode has no {@code /version} either: it is answered here, with {@link #serverVersion}.
 * Everything else is CRUD mode's.
 */
public final class EvictionApiDispatcher extends KubernetesCrudDispatcher {
  private static final Pattern EVICTION =
      Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/?]+)/eviction(\\?.*)?");
  private static final Pattern NODE_PODS = Pattern.compile(
      "(/api/v1(?:/namespaces/[^/]+)?/pods)\\?(.*?&?)fieldSelector=spec\\.nodeName(?:%3D|=)([^&]*)(&.*)?");
  private static final int TOO_MANY_REQUESTS = 429;

  private final KubernetesSerialization json = new KubernetesSerialization();
  private final Object evictions = new Object();
  private volatile String gitVersion = "v1.31.4";

  /** {@code /version} answers {@code version} ({@code v1.31.4} unless set) from now on. */
  public void serverVersion(String version) {
    gitVersion = version;
  }

  @Override
  public MockResponse handleCreate(RecordedRequest request) {
    Matcher m = EVICTION.matcher(request.getPath());
    if (!m.matches()) {
      return super.handleCreate(request);
    }
    synchronized (evictions) {
      return evict(m.group(1), m.group(2));
    }
  }

  @Override
  public MockResponse handleGet(String path) {
    if (path.equals("/version") || path.startsWith("/version?")) {
      String minor = gitVersion.replaceAll("^v?\\d+\\.(\\d+).*$", "$1");
      return new MockResponse()
          .setResponseCode(200)
          .setBody("{\"major\":\"1\",\"minor\":\"" + minor + "\",\"gitVersion\":\""
              + gitVersion + "\",\"gitCommit\":\"\",\"gitTreeState\":\"clean\","
              + "\"buildDate\":\"2026-01-01T00:00:00Z\",\"goVersion\":\"go1.23\","
              + "\"compiler\":\"gc\",\"platform\":\"linux/amd64\"}");
    }
    Matcher m = NODE_PODS.matcher(path);
    if (!m.matches()) {
      return super.handleGet(path);
    }
    String node = URLDecoder.decode(m.group(3), StandardCharsets.UTF_8);
    String rest = m.group(2) + (m.group(4) == null ? "" : m.group(4));
    MockResponse all = super.handleGet(m.group(1) + (rest.isEmpty() ? "" : "?" + rest));
    if (all.code() != 200) {
      return all;
    }
    PodList pods = json.unmarshal(all.getBody().readUtf8(), PodList.class);
    pods.setItems(pods.getItems().stream()
        .filter(p -> p.getSpec() != null && node.equals(p.getSpec().getNodeName()))
        .toList());
    return new MockResponse().setResponseCode(200).setBody(json.asJson(pods));
  }

  @Override
  public JsonNode merge(JsonNode original, String patch) throws KubernetesCrudDispatcherException {
    JsonNode parsed;
    try {
      parsed = Serialization.jsonMapper().readTree(patch);
    } catch (JacksonException e) {
      throw new KubernetesCrudDispatcherException(e.getMessage(), 400);
    }
    return mergePatch(original, parsed);
  }

  /** RFC 7386: objects merge member by member, null removes, anything else replaces. */
  private static JsonNode mergePatch(JsonNode target, JsonNode patch) {
    if (!patch.isObject()) {
      return patch.deepCopy();
    }
    ObjectNode result = target != null && target.isObject()
        ? (ObjectNode) target.deepCopy()
        : JsonNodeFactory.instance.objectNode();
    for (Map.Entry<String, JsonNode> field : patch.properties()) {
      if (field.getValue().isNull()) {
        result.remove(field.getKey());
      } else {
        result.set(field.getKey(), mergePatch(result.get(field.getKey()), field.getValue()));
      }
    }
    return result;
  }

  private MockResponse evict(String namespace, String name) {
    String podPath = "/api/v1/namespaces/" + namespace + "/pods/" + name;
    MockResponse found = handleGet(podPath);
    if (found.code() != 200) {
      return status(404, "NotFound", "pods \"" + name + "\" not found");
    }
    Pod pod = json.unmarshal(found.getBody().readUtf8(), Pod.class);
    Map<String, String> labels =
        pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
    String budgetsPath = "/apis/policy/v1/namespaces/" + namespace + "/poddisruptionbudgets";
    MockResponse listed = handleGet(budgetsPath);
    PodDisruptionBudgetList budgets = listed.code() == 200
        ? json.unmarshal(listed.getBody().readUtf8(), PodDisruptionBudgetList.class)
        : new PodDisruptionBudgetList();
    List<PodDisruptionBudget> selecting = new ArrayList<>();
    for (PodDisruptionBudget b : budgets.getItems()) {
      Map<String, String> selector = b.getSpec().getSelector().getMatchLabels();
      if (selector != null && labels.entrySet().containsAll(selector.entrySet())) {
        selecting.add(b);
        int allowed = b.getStatus() == null || b.getStatus().getDisruptionsAllowed() == null
            ? 0
            : b.getStatus().getDisruptionsAllowed();
        if (allowed <= 0) {
          return status(
              TOO_MANY_REQUESTS,
              "TooManyRequests",
              "Cannot evict pod as it would violate the pod's disruption budget. The disruption"
                  + " budget " + b.getMetadata().getName() + " needs more healthy pods");
        }
      }
    }
    for (PodDisruptionBudget b : selecting) {
      b.getStatus().setDisruptionsAllowed(b.getStatus().getDisruptionsAllowed() - 1);
      b.getMetadata().setResourceVersion(null);
      handleUpdate(new RecordedRequest(
          "HTTP/1.1",
          HttpMethod.PUT,
          budgetsPath + "/" + b.getMetadata().getName() + "/status",
          Headers.builder().add("Content-Type", "application/json").build(),
          new Buffer(json.asJson(b).getBytes(StandardCharsets.UTF_8))));
    }
    handleDelete(podPath);
    return new MockResponse()
        .setResponseCode(201)
        .setBody("{\"apiVersion\":\"policy/v1\",\"kind\":\"Eviction\",\"metadata\":{\"name\":\""
            + name + "\",\"namespace\":\"" + namespace + "\"}}");
  }

  private static MockResponse status(int code, String reason, String message) {
    return new MockResponse()
        .setResponseCode(code)
        .setBody("{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"status\":\"Failure\",\"code\":"
            + code + ",\"reason\":\"" + reason + "\",\"message\":\"" + message + "\"}");
  }
}
