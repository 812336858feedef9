"""Deployment files: Kubernetes manifests, the compose file, the Dockerfile, systemd units.

No Django: these read files and, where installed, run `docker-compose config` and
`kubectl kustomize` (skipped with a message when the tool is missing).
"""

from __future__ import annotations

import configparser
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
SYSTEMD = DEPLOY / "systemd"

SECRET_NAMES = {
    "SECRET_KEY",
    "DATABASE_URL",
    "OPENAI_API_KEY",
    "REDIS_URL",
    "CELERY_BROKER_URL",
    "EMAIL_URL",
    "POSTGRES_PASSWORD",
    "MINIO_ROOT_PASSWORD",
    "STORAGE_S3_ACCESS_KEY_ID",
    "STORAGE_S3_SECRET_ACCESS_KEY",
    "METRICS_TOKEN",
}
REQUIRED_SECRETS = {"SECRET_KEY", "DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"}
ASGI_APP = "chatwidget.asgi:application"


# --- Kubernetes -----------------------------------------------------------------------------


def _k8s_documents() -> list[tuple[Path, dict]]:
    docs = []
    for path in sorted(K8S.glob("*.y*ml")):
        with path.open(encoding="utf-8") as fh:
            for doc in yaml.safe_load_all(fh):
                if doc is not None:
                    docs.append((path, doc))
    return docs


def _objects(kind: str) -> list[dict]:
    return [
        doc
        for path, doc in _k8s_documents()
        if doc.get("kind") == kind and path.name != "kustomization.yaml"
    ]


def _one(kind: str, name: str) -> dict:
    found = [o for o in _objects(kind) if o["metadata"]["name"] == name]
    assert len(found) == 1, f"expected one {kind} named {name}, found {len(found)}"
    return found[0]


def _pod_spec(obj: dict) -> dict:
    return obj["spec"]["template"]["spec"]


def _all_containers(obj: dict) -> list[dict]:
    spec = _pod_spec(obj)
    return list(spec.get("initContainers", [])) + list(spec["containers"])


def _workloads() -> list[dict]:
    return _objects("Deployment") + _objects("Job")


def _web_deployment() -> dict:
    """The Deployment whose container serves HTTP: the one probed on /readyz."""
    webs = [
        d
        for d in _objects("Deployment")
        if any(
            c.get("readinessProbe", {}).get("httpGet", {}).get("path") == "/readyz"
            for c in _pod_spec(d)["containers"]
        )
    ]
    assert len(webs) == 1, "exactly one Deployment should serve HTTP (readiness on /readyz)"
    return webs[0]


def _labels_match(selector: dict, labels: dict) -> bool:
    return bool(selector) and all(labels.get(k) == v for k, v in selector.items())


def test_every_k8s_file_parses_and_names_its_objects():
    files = sorted(K8S.glob("*.y*ml"))
    assert len(files) >= 9
    docs = _k8s_documents()
    assert {p for p, _ in docs} == set(files), "a manifest file holds no document"
    for path, doc in docs:
        assert isinstance(doc, dict), path
        assert doc.get("apiVersion") and doc.get("kind"), f"{path.name}: apiVersion/kind"
        if doc["kind"] != "Kustomization":
            assert doc.get("metadata", {}).get("name"), f"{path.name}: metadata.name"
            assert "namespace" not in doc["metadata"], f"{path.name}: keep namespace-less"
    kinds = {doc["kind"] for _, doc in docs}
    assert {
        "ConfigMap",
        "Secret",
        "Deployment",
        "Job",
        "Service",
        "Ingress",
        "HorizontalPodAutoscaler",
    } <= kinds


def test_deployments_are_web_worker_beat():
    names = {d["metadata"]["name"] for d in _objects("Deployment")}
    assert names == {"chatwidget-web", "chatwidget-worker", "chatwidget-beat"}
    assert _web_deployment()["metadata"]["name"] == "chatwidget-web"


@pytest.mark.parametrize("name", ["chatwidget-web", "chatwidget-worker", "chatwidget-beat"])
def test_deployment_selector_matches_its_pod_labels(name):
    deployment = _one("Deployment", name)
    selector = deployment["spec"]["selector"]["matchLabels"]
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert _labels_match(selector, labels)


def test_each_workload_selects_only_its_own_pods():
    deployments = _objects("Deployment")
    for deployment in deployments:
        selector = deployment["spec"]["selector"]["matchLabels"]
        for other in deployments:
            if other["metadata"]["name"] == deployment["metadata"]["name"]:
                continue
            assert not _labels_match(selector, other["spec"]["template"]["metadata"]["labels"]), (
                f"{deployment['metadata']['name']} would adopt {other['metadata']['name']}'s pods"
            )


def test_all_containers_have_image_resources_and_run_as_non_root():
    images = set()
    for workload in _workloads():
        name = workload["metadata"]["name"]
        pod = _pod_spec(workload)
        pod_ctx = pod.get("securityContext", {})
        for container in _all_containers(workload):
            where = f"{name}/{container['name']}"
            assert container.get("image"), f"{where}: image"
            images.add(container["image"])
            resources = container.get("resources", {})
            assert resources.get("requests", {}).get("memory"), f"{where}: memory request"
            assert resources.get("requests", {}).get("cpu"), f"{where}: cpu request"
            assert resources.get("limits", {}).get("memory"), f"{where}: memory limit"
            ctx = {**pod_ctx, **container.get("securityContext", {})}
            assert ctx.get("runAsNonRoot") is True, f"{where}: runAsNonRoot"
            assert ctx.get("runAsUser", 10001) != 0, f"{where}: runAsUser 0"
            assert ctx.get("allowPrivilegeEscalation") is False, f"{where}: privilege escalation"
            assert ctx.get("readOnlyRootFilesystem") is True, f"{where}: read-only root"
            mounts = {m["mountPath"] for m in container.get("volumeMounts", [])}
            assert "/tmp" in mounts, f"{where}: a read-only root needs a writable /tmp"
        assert pod_ctx.get("runAsUser") == 10001, f"{name}: the image's user is 10001"
    assert len(images) == 1, f"every container should run the same release, got {images}"


def _secret_name() -> str:
    secrets = _objects("Secret")
    assert len(secrets) == 1
    return secrets[0]["metadata"]["name"]


def test_secrets_are_only_referenced_never_inline():
    secret = _secret_name()
    secret_keys = set(_objects("Secret")[0]["stringData"])
    for workload in _workloads():
        for container in _all_containers(workload):
            where = f"{workload['metadata']['name']}/{container['name']}"
            env = {e["name"]: e for e in container.get("env", [])}
            for name in SECRET_NAMES & set(env):
                assert "value" not in env[name], f"{where}: {name} has an inline value"
                ref = env[name].get("valueFrom", {}).get("secretKeyRef")
                assert ref, f"{where}: {name} must come from a secretKeyRef"
                assert ref["name"] == secret and ref["key"] in secret_keys, where
            missing = REQUIRED_SECRETS - set(env)
            from_secret = [s for s in container.get("envFrom", []) if "secretRef" in s]
            assert not missing or from_secret, f"{where}: missing {sorted(missing)}"
            for source in container.get("envFrom", []):
                if "secretRef" in source:
                    assert source["secretRef"]["name"] == secret, where


def test_optional_secrets_are_optional_and_required_ones_are_not():
    for workload in _workloads():
        for container in _all_containers(workload):
            for entry in container.get("env", []):
                ref = entry.get("valueFrom", {}).get("secretKeyRef")
                if not ref:
                    continue
                optional = ref.get("optional", False)
                assert optional == (entry["name"] in {"OPENAI_API_KEY", "EMAIL_URL"}), (
                    f"{workload['metadata']['name']}: {entry['name']} optional={optional}"
                )


def test_configmap_holds_no_secret_and_is_the_one_referenced():
    configmaps = _objects("ConfigMap")
    assert len(configmaps) == 1
    data = configmaps[0]["data"]
    assert not SECRET_NAMES & set(data), "secrets belong in the Secret, not the ConfigMap"
    assert data["DJANGO_SETTINGS_MODULE"] == "chatwidget.settings.production"
    assert all(isinstance(v, str) for v in data.values()), "ConfigMap values must be strings"
    name = configmaps[0]["metadata"]["name"]
    for workload in _workloads():
        for container in _all_containers(workload):
            refs = [
                s["configMapRef"]["name"]
                for s in container.get("envFrom", [])
                if "configMapRef" in s
            ]
            assert refs == [name], f"{workload['metadata']['name']}/{container['name']}"


def test_secret_template_holds_placeholders_only():
    secret = _objects("Secret")[0]
    for key, value in secret["stringData"].items():
        assert value == "" or "CHANGE-ME" in value, f"{key} should be a placeholder"
    assert (
        "secret.example.yaml" not in (K8S / "kustomization.yaml").read_text().split("resources:")[1]
    ), "the template must not be applied over the real Secret"


def _probe_port_names(container: dict) -> set[str]:
    return {p["name"] for p in container.get("ports", [])} | {
        p["containerPort"] for p in container.get("ports", [])
    }


def test_web_probes_graceful_stop_and_command():
    web = _web_deployment()
    pod = _pod_spec(web)
    (container,) = pod["containers"]
    ports = _probe_port_names(container)
    readiness, liveness = container["readinessProbe"], container["livenessProbe"]
    assert readiness["httpGet"]["path"] == "/readyz"
    assert liveness["httpGet"]["path"] == "/healthz", "liveness must not depend on the database"
    for probe in (readiness, liveness, container.get("startupProbe", liveness)):
        assert probe["httpGet"]["port"] in ports
        # Answered before the ALLOWED_HOSTS check (chatwidget/health.py): a probe that
        # reaches the pod by IP needs no Host header, and ALLOWED_HOSTS no "localhost".
        headers = {h["name"] for h in probe["httpGet"].get("httpHeaders", [])}
        assert "Host" not in headers
    assert container["lifecycle"]["preStop"]
    grace = pod["terminationGracePeriodSeconds"]
    assert grace >= 30
    command = container["command"]
    # the client address comes from TRUSTED_PROXIES only (chatwidget.platform.client_address), never
    # from Daphne's --proxy-headers, which believes anyone's X-Forwarded-For
    assert command[0] == "daphne" and command[-1] == ASGI_APP
    assert "--proxy-headers" not in command
    assert str(container["ports"][0]["containerPort"]) in command
    assert web["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0


def test_worker_and_beat_commands():
    worker = _pod_spec(_one("Deployment", "chatwidget-worker"))["containers"][0]["command"]
    beat_deployment = _one("Deployment", "chatwidget-beat")
    beat = _pod_spec(beat_deployment)["containers"][0]["command"]
    assert worker[:4] == ["celery", "-A", "chatwidget", "worker"]
    assert beat[:4] == ["celery", "-A", "chatwidget", "beat"]
    # beat's state file must be writable on a read-only root filesystem
    assert beat[beat.index("--schedule") + 1].startswith("/tmp/")
    assert beat_deployment["spec"]["replicas"] == 1, "more than one beat runs every task twice"
    probe = _pod_spec(beat_deployment)["containers"][0]["livenessProbe"]["exec"]["command"]
    assert probe == ["python", "-m", "chatwidget.beat"], "a hung beat is restarted"
    assert beat_deployment["spec"]["strategy"]["type"] == "Recreate"


def test_migrate_job_runs_migrate_and_pods_wait_for_it():
    (job,) = _objects("Job")
    pod = _pod_spec(job)
    assert pod["restartPolicy"] in {"Never", "OnFailure"}
    assert pod["containers"][0]["command"] == ["python", "manage.py", "migrate", "--noinput"]
    for deployment in _objects("Deployment"):
        init = _pod_spec(deployment).get("initContainers", [])
        assert any("migrate --check" in " ".join(c["command"]) for c in init), (
            f"{deployment['metadata']['name']} should wait for the migrations"
        )


def test_service_selects_the_web_pods_and_their_port():
    (service,) = _objects("Service")
    web = _web_deployment()
    selector = service["spec"]["selector"]
    assert _labels_match(selector, web["spec"]["template"]["metadata"]["labels"])
    for other in _objects("Deployment"):
        if other["metadata"]["name"] != web["metadata"]["name"]:
            assert not _labels_match(selector, other["spec"]["template"]["metadata"]["labels"])
    ports = _probe_port_names(_pod_spec(web)["containers"][0])
    for port in service["spec"]["ports"]:
        assert port["targetPort"] in ports


def test_ingress_routes_websockets_with_long_timeouts_to_the_service():
    (ingress,) = _objects("Ingress")
    (service,) = _objects("Service")
    service_ports = {p["name"] for p in service["spec"]["ports"]} | {
        p["port"] for p in service["spec"]["ports"]
    }
    paths = {}
    for rule in ingress["spec"]["rules"]:
        for path in rule["http"]["paths"]:
            backend = path["backend"]["service"]
            assert backend["name"] == service["metadata"]["name"]
            assert backend["port"].get("name", backend["port"].get("number")) in service_ports
            paths[path["path"]] = path
    assert any(p.rstrip("/") == "/ws" for p in paths), "the Ingress must route /ws/"
    assert "/" in paths
    annotations = ingress["metadata"]["annotations"]
    for key in ("proxy-read-timeout", "proxy-send-timeout"):
        assert int(annotations[f"nginx.ingress.kubernetes.io/{key}"]) >= 3600
    assert not any("affinity" in key for key in annotations), "no sticky sessions needed"
    assert ingress["spec"].get("tls"), "TLS terminates at the Ingress"


def test_hpa_scales_the_web_deployment_on_cpu():
    (hpa,) = _objects("HorizontalPodAutoscaler")
    web = _web_deployment()
    assert hpa["apiVersion"] == "autoscaling/v2"
    target = hpa["spec"]["scaleTargetRef"]
    assert (target["apiVersion"], target["kind"], target["name"]) == (
        "apps/v1",
        "Deployment",
        web["metadata"]["name"],
    )
    metrics = [m for m in hpa["spec"]["metrics"] if m["type"] == "Resource"]
    assert metrics[0]["resource"]["name"] == "cpu"
    assert 0 < metrics[0]["resource"]["target"]["averageUtilization"] <= 100
    assert 1 <= hpa["spec"]["minReplicas"] <= hpa["spec"]["maxReplicas"]
    # Utilization is measured against the request: the web container must have one.
    assert _pod_spec(web)["containers"][0]["resources"]["requests"]["cpu"]


def test_pdb_selects_the_web_pods():
    for pdb in _objects("PodDisruptionBudget"):
        assert _labels_match(
            pdb["spec"]["selector"]["matchLabels"],
            _web_deployment()["spec"]["template"]["metadata"]["labels"],
        )


def test_kustomization_lists_every_manifest_but_the_secret_template():
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    listed = set(kustomization["resources"])
    files = {p.name for p in K8S.glob("*.yaml")} - {"kustomization.yaml"}
    assert listed == files - {"secret.example.yaml"}
    image_names = {i["name"] for i in kustomization["images"]}
    for workload in _workloads():
        for container in _all_containers(workload):
            assert container["image"].rsplit(":", 1)[0] in image_names


def test_the_migrate_job_is_named_per_release():
    kubectl = shutil.which("kubectl")
    if not kubectl:
        pytest.skip("kubectl is not installed: `kubectl kustomize deploy/k8s` not checked")
    result = subprocess.run(
        [kubectl, "kustomize", str(K8S)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    (job,) = [d for d in yaml.safe_load_all(result.stdout) if d and d["kind"] == "Job"]
    tag = job["spec"]["template"]["spec"]["containers"][0]["image"].rsplit(":", 1)[1]
    assert job["metadata"]["name"] == f"chatwidget-migrate-{tag}"


def test_kustomize_builds():
    kubectl = shutil.which("kubectl")
    if not kubectl:
        pytest.skip("kubectl is not installed: `kubectl kustomize deploy/k8s` not checked")
    result = subprocess.run(
        [kubectl, "kustomize", str(K8S)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    kinds = [d["kind"] for d in yaml.safe_load_all(result.stdout) if d]
    assert "Secret" not in kinds
    assert kinds.count("Deployment") == 3


# --- docker compose ---------------------------------------------------------------------------


def _compose_env(tmp_path: Path, *, dotenv: str = "", **values: str) -> tuple[dict, Path]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in SECRET_NAMES | {"ALLOWED_HOSTS", "CHATWIDGET_IMAGE", "MINIO_ROOT_PASSWORD"}
    }
    env.update(values)
    env_file = tmp_path / "test.env"  # isolates the test from a real deploy/.env
    env_file.write_text(dotenv)
    env["CHATWIDGET_ENV_FILE"] = str(env_file)  # what the containers get (env_file)
    return env, env_file


def _compose(args: list[str], env: dict, env_file: Path) -> subprocess.CompletedProcess:
    binary = shutil.which("docker-compose")
    if not binary:
        pytest.skip("docker-compose is not installed: deploy/compose.yaml not validated")
    return subprocess.run(
        [binary, "--env-file", str(env_file), "-f", str(DEPLOY / "compose.yaml"), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


REQUIRED = {
    "SECRET_KEY": "test-only-not-a-secret",
    "ALLOWED_HOSTS": "chat.example.com",
    "POSTGRES_PASSWORD": "test-only",
    "MINIO_ROOT_PASSWORD": "test-only-minio-password",
}


def test_compose_config_is_valid(tmp_path):
    env, env_file = _compose_env(tmp_path, **REQUIRED)
    result = _compose(["config", "-q"], env, env_file)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("missing", sorted(REQUIRED))
def test_compose_refuses_to_run_without_a_required_value(tmp_path, missing):
    values = {k: v for k, v in REQUIRED.items() if k != missing}
    env, env_file = _compose_env(tmp_path, **values)
    result = _compose(["config", "-q"], env, env_file)
    assert result.returncode != 0
    assert missing in result.stderr


def test_compose_services_commands_and_environment(tmp_path):
    # a setting in deploy/.env that compose.yaml does not name reaches every app container
    env, env_file = _compose_env(
        tmp_path, dotenv="EMBEDDING_MODEL=text-embedding-3-small\nSHOP_API_TOKEN=t0k\n", **REQUIRED
    )
    result = _compose(["config"], env, env_file)
    assert result.returncode == 0, result.stderr
    services = yaml.safe_load(result.stdout)["services"]
    assert set(services) == {
        *("postgres", "pgbouncer", "redis", "minio", "minio-bucket"),
        *("migrate", "web", "worker", "beat", "nginx"),
    }
    assert services["postgres"]["image"].startswith("postgres:16")
    assert services["redis"]["image"].startswith("redis:7")
    for name in ("postgres", "redis"):
        assert services[name]["healthcheck"]["test"], name

    def command(name):
        value = services[name]["command"]
        return value if isinstance(value, list) else shlex.split(value)

    assert command("migrate") == ["python", "manage.py", "migrate", "--noinput"]
    assert command("web")[0] == "daphne" and command("web")[-1] == ASGI_APP
    assert command("worker")[:4] == ["celery", "-A", "chatwidget", "worker"]
    assert command("beat")[:4] == ["celery", "-A", "chatwidget", "beat"]
    assert "scale" not in services["beat"] and "replicas" not in services["beat"].get("deploy", {})
    for name in ("web", "worker", "beat"):
        depends = services[name]["depends_on"]
        assert depends["migrate"]["condition"] == "service_completed_successfully", name
    for name in ("migrate", "web", "worker", "beat"):
        service_env = services[name]["environment"]
        assert service_env["DJANGO_SETTINGS_MODULE"] == "chatwidget.settings.production"
        assert service_env["SECRET_KEY"] == REQUIRED["SECRET_KEY"]
        assert service_env["DATABASE_URL"].startswith("postgres://")
        assert "@pgbouncer:5432/" in service_env["DATABASE_URL"]  # transaction pooling
        assert service_env["DATABASE_POOLER"] == "pgbouncer"
        assert service_env["REDIS_URL"].startswith("redis://redis:")
        assert service_env["STORAGE_S3_ENDPOINT_URL"] == "http://minio:9000"
        assert service_env["EMBEDDING_MODEL"] == "text-embedding-3-small"
        assert service_env["SHOP_API_TOKEN"] == "t0k"
        # Optional values set nowhere stay unset (the app's defaults apply), not "".
        assert "OPENAI_API_KEY" not in service_env and "OPENAI_BASE_URL" not in service_env
        assert services[name]["read_only"] is True
    # the image's HEALTHCHECK asks Daphne, which migrate lacks; beat's checks its heartbeat
    assert services["migrate"]["healthcheck"]["test"] in (["NONE"], "NONE")
    assert services["beat"]["healthcheck"]["test"] == ["CMD", "python", "-m", "chatwidget.beat"]
    volumes = {
        v["target"]: v["source"] for v in services["nginx"]["volumes"] if isinstance(v, dict)
    } or {v.split(":")[1]: v.split(":")[0] for v in services["nginx"]["volumes"]}
    assert volumes["/etc/nginx/conf.d/default.conf"].endswith("nginx/compose.conf")
    for source in volumes.values():
        assert Path(source).exists(), f"nginx mounts a missing file: {source}"


def test_compose_file_holds_no_secret_values():
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    for name, service in services.items():
        env = service.get("environment") or {}
        assert isinstance(env, dict), f"{name}: use the mapping form"
        for key, value in env.items():
            if key in SECRET_NAMES and value is not None:
                # interpolated from deploy/.env, or an internal URL carrying no credential
                interpolated = "${" in str(value)
                assert interpolated or "@" not in str(value), f"{name}: {key} is hard-coded"
                assert interpolated or key not in {
                    "SECRET_KEY",
                    "OPENAI_API_KEY",
                    "POSTGRES_PASSWORD",
                    "MINIO_ROOT_PASSWORD",
                    "STORAGE_S3_SECRET_ACCESS_KEY",
                }, f"{name}: {key}"
        assert "env_file" not in service or service["env_file"]


@pytest.mark.parametrize("path", [".env.example", "systemd/env.example"])
def test_env_examples_hold_no_secret_and_no_trailing_comments(path):
    lines = (DEPLOY / path).read_text().splitlines()
    values = dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))
    assert values["SECRET_KEY"] == ""
    assert "POSTGRES_PASSWORD" not in values or values["POSTGRES_PASSWORD"] == ""
    # Neither systemd nor compose strips "# ..." after a value: once uncommented, it would
    # become part of the value.
    for line in lines:
        setting = line.lstrip("#").strip()
        if re.match(r"^[A-Z][A-Z0-9_]*=", setting):
            assert " #" not in setting, line


# --- Dockerfile -------------------------------------------------------------------------------


def _dockerfile_instructions() -> list[tuple[str, str]]:
    text = (DEPLOY / "Dockerfile").read_text()
    joined = re.sub(r"\\\n", " ", text)
    instructions = []
    for line in joined.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ")
        instructions.append((keyword.upper(), rest.strip()))
    return instructions


def _stages() -> list[list[tuple[str, str]]]:
    stages: list[list[tuple[str, str]]] = []
    for keyword, rest in _dockerfile_instructions():
        if keyword == "FROM":
            stages.append([])
        if stages:
            stages[-1].append((keyword, rest))
    return stages


def test_dockerfile_is_multi_stage_on_python_311_slim():
    instructions = _dockerfile_instructions()
    args = dict(rest.split("=", 1) for k, rest in instructions if k == "ARG" and "=" in rest)
    stages = _stages()
    assert len(stages) >= 2
    for stage in stages:
        base = stage[0][1].split()[0]
        base = re.sub(r"\$\{(\w+)\}", lambda m: args[m.group(1)], base)
        assert base.startswith("python:3.11-slim"), base


RUNTIME_APT_PACKAGES = {"tesseract-ocr", "tesseract-ocr-eng", "tesseract-ocr-deu"}


def test_dockerfile_final_stage_runs_as_uid_10001_without_build_tools():
    final = _stages()[-1]
    users = [rest for k, rest in final if k == "USER"]
    assert users, "the runtime stage must switch to a non-root USER"
    assert users[-1].split(":")[0] in {"10001", "chatwidget"}
    assert any("--uid 10001" in rest for k, rest in final if k == "RUN")
    runs = " ".join(rest for k, rest in final if k == "RUN")
    # run-time programs only (Tesseract for visitors' photos, issue 33): no compilers
    for installed in re.findall(r"apt-get install ([^&]*)", runs):
        packages = {word for word in installed.split() if not word.startswith("-")}
        assert packages <= RUNTIME_APT_PACKAGES, packages
        assert "--no-install-recommends" in installed
    assert "build-essential" not in runs
    assert "pip install" not in runs, "dependencies are installed in the builder stage"
    index_user = max(i for i, (k, _) in enumerate(final) if k == "USER")
    assert not any(k in {"RUN", "COPY", "ADD"} for k, _ in final[index_user + 1 :]), (
        "files written after USER would be owned by the runtime user"
    )


def test_dockerfile_bakes_in_no_secret():
    text = (DEPLOY / "Dockerfile").read_text()
    secretish = re.compile(r"SECRET|PASSWORD|API_KEY|(^|_)TOKEN$|_URL$")
    for keyword, rest in _dockerfile_instructions():
        if keyword in {"ENV", "ARG"}:
            for key in re.findall(r"(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)(?==|\s|$)", rest):
                assert key not in SECRET_NAMES and not secretish.search(key.upper()), (
                    f"{keyword} {key}: secrets come from the environment at run time"
                )
    assert not re.search(r"sk-[A-Za-z0-9]{10,}", text)
    assert "SECRET_KEY=" not in text and "OPENAI_API_KEY=" not in text


def test_dockerfile_build_steps_and_runtime_contract():
    instructions = _dockerfile_instructions()
    text = " ".join(rest for _, rest in instructions)
    builder = " ".join(rest for _, rest in _stages()[0])
    assert "pip wheel" in builder and "--no-cache-dir" in builder
    assert "tiktoken.get_encoding" in builder and "o200k_base" in builder
    assert "python -m chatwidget.i18n" in text
    assert "collectstatic --noinput" in text
    assert ("EXPOSE", "8000") in instructions
    env = " ".join(rest for k, rest in instructions if k == "ENV")
    assert "TIKTOKEN_CACHE_DIR=/app/tiktoken" in env
    assert "STATIC_ROOT=/app/staticfiles" in env
    assert "DJANGO_SETTINGS_MODULE=chatwidget.settings.production" in env
    (healthcheck,) = [rest for k, rest in instructions if k == "HEALTHCHECK"]
    assert "python" in healthcheck and "healthcheck" in healthcheck
    # the modules the build and the default command run exist
    for module in ("chatwidget/i18n.py", "chatwidget/asgi.py", "chatwidget/celery.py", "manage.py"):
        assert (ROOT / module).is_file(), module
    (cmd,) = [rest for k, rest in instructions if k == "CMD"]
    assert yaml.safe_load(cmd) == ["daphne", "-b", "0.0.0.0", "-p", "8000", ASGI_APP]


def _dockerignore_allows(path: str) -> bool:
    """Evaluates deploy/Dockerfile.dockerignore for a top-level path (last match wins)."""
    allowed = True
    for line in (DEPLOY / "Dockerfile.dockerignore").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        negate = line.startswith("!")
        pattern = line.lstrip("!").rstrip("/")
        if pattern == "*" or pattern == path or path.startswith(pattern + "/"):
            allowed = negate
        elif pattern.startswith("**/") and path.split("/")[-1] == pattern[3:]:
            allowed = negate
    return allowed


def test_dockerfile_copies_only_existing_paths_the_ignore_file_lets_through():
    for keyword, rest in _dockerfile_instructions():
        if keyword != "COPY" or rest.startswith("--from"):
            continue
        *sources, _target = rest.split()
        for source in sources:
            source = source.rstrip("/")
            assert (ROOT / source).exists(), f"COPY {source}: not in the repository"
            assert _dockerignore_allows(source), f"COPY {source}: excluded by the ignore file"
    for private in (".env", ".venv", "db.sqlite3", ".run", "deploy/.env", "tests"):
        assert not _dockerignore_allows(private), f"{private} would reach the build"


# --- systemd ----------------------------------------------------------------------------------


def _unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # systemd keys are case-sensitive
    parser.read(SYSTEMD / name, encoding="utf-8")
    return parser


SERVICES = ["chatwidget-web@.service", "chatwidget-worker.service", "chatwidget-beat.service"]


@pytest.mark.parametrize("name", SERVICES)
def test_systemd_service_units(name):
    unit = _unit(name)
    assert {"Unit", "Service", "Install"} <= set(unit.sections())
    service = unit["Service"]
    assert service["ExecStart"].startswith("/")
    assert service["User"] and service["User"] != "root"
    assert service["Restart"] == "on-failure"
    assert service["EnvironmentFile"] == "/etc/chatwidget/env"
    assert service["KillSignal"] == "SIGTERM"
    assert service["TimeoutStopSec"]
    assert service["NoNewPrivileges"] == "yes"
    assert service["ProtectSystem"] == "strict"
    assert service["PrivateTmp"] == "yes"
    assert "chatwidget.settings.production" in (SYSTEMD / name).read_text()
    assert unit["Install"]["WantedBy"]


def test_systemd_commands():
    web = _unit("chatwidget-web@.service")["Service"]["ExecStart"].split()
    assert web[0].endswith("/daphne") and web[-1] == ASGI_APP
    assert web[web.index("-p") + 1] == "%i", "the instance name is the port"
    assert web[web.index("-b") + 1] == "127.0.0.1", "Daphne listens behind nginx only"
    worker = _unit("chatwidget-worker.service")["Service"]
    assert worker["ExecStart"].split()[1:4] == ["-A", "chatwidget", "worker"]
    assert worker["KillMode"] == "mixed"
    beat = _unit("chatwidget-beat.service")["Service"]
    argv = beat["ExecStart"].split()
    assert argv[1:4] == ["-A", "chatwidget", "beat"]
    schedule = argv[argv.index("--schedule") + 1]
    # the one path beat writes must be writable under ProtectSystem=strict
    assert schedule.startswith(f"/var/lib/{beat['StateDirectory']}/")


def test_nginx_upstream_ports_match_the_web_unit_instances():
    """chatwidget.conf's upstream lists 127.0.0.1 ports, each a chatwidget-web@PORT."""
    conf = (DEPLOY / "nginx" / "chatwidget.conf").read_text()
    ports = re.findall(r"server 127\.0\.0\.1:(\d+)", conf)
    assert len(ports) >= 2
    readme = (DEPLOY / "README.md").read_text()
    for port in ports:
        assert f"chatwidget-web@{port}" in readme


def test_compose_networks_keep_the_stores_inside_and_nginx_away_from_them(tmp_path):
    """issue 31: the stores sit on an internal network (no route out, nothing else on it but
    the application), nginx shares a network with web only, the worker reaches outside on its
    own network, and beat and migrate reach nothing but the stores."""
    env, env_file = _compose_env(tmp_path, **REQUIRED)
    result = _compose(["config"], env, env_file)
    assert result.returncode == 0, result.stderr
    config = yaml.safe_load(result.stdout)
    networks = config["networks"]
    assert networks["data"].get("internal") is True
    assert not networks["default"].get("internal") and not networks["egress"].get("internal")
    on = {name: set(service.get("networks") or {}) for name, service in config["services"].items()}
    for store in ("postgres", "redis", "pgbouncer", "minio", "minio-bucket"):
        assert on[store] == {"data"}, store
    assert on["nginx"] == {"default"}
    assert on["web"] == {"default", "data"}
    assert on["worker"] == {"egress", "data"}
    assert on["beat"] == {"data"} and on["migrate"] == {"data"}
    outside = {n for n, net in networks.items() if not net.get("internal")}
    reach_out = {name for name, nets in on.items() if nets & outside}
    assert reach_out == {"nginx", "web", "worker"}
