{{/* Names: <release>-nvcf-control-plane, shortened to the release name when it already says so. */}}
{{- define "nvcf.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* The services: values key, process name (the image's command), and the rest by name. */}}
{{- define "nvcf.components" -}}
gateway: gateway
nvcf: nvcf
icms: icms
nvcaStatus: nvca-status
nvct: nvct
{{- end -}}

{{- define "nvcf.componentName" -}}
{{- printf "%s-%s" (include "nvcf.fullname" .root) .component -}}
{{- end -}}

{{- define "nvcf.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: nvcf
{{- end -}}

{{- define "nvcf.selectorLabels" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "nvcf.componentLabels" -}}
{{ include "nvcf.labels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "nvcf.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{- define "nvcf.serviceAccountName" -}}
{{- default (include "nvcf.fullname" .) .Values.serviceAccount.name -}}
{{- end -}}

{{/* The base URL of a subgraph's Service, as the gateway and nvcf reach it. */}}
{{- define "nvcf.url" -}}
{{- $v := index .root.Values .key -}}
{{- printf "http://%s-%s:%d" (include "nvcf.fullname" .root) .component (int $v.port) -}}
{{- end -}}

{{/* Longer than the preStop pause plus the drain, so the kubelet never cuts a drain short. */}}
{{- define "nvcf.terminationGrace" -}}
{{- $drain := div (add (int64 .Values.drainGraceMs) 999) 1000 -}}
{{- $floor := add $drain (int64 .Values.preStopSleepSeconds) -}}
{{- if kindIs "invalid" .Values.terminationGracePeriodSeconds -}}
{{- add $floor 5 -}}
{{- else if le (int64 .Values.terminationGracePeriodSeconds) $floor -}}
{{- fail (printf "terminationGracePeriodSeconds (%d) must exceed preStopSleepSeconds + drainGraceMs (%d s): the kubelet would kill a draining pod" (int64 .Values.terminationGracePeriodSeconds) $floor) -}}
{{- else -}}
{{- int64 .Values.terminationGracePeriodSeconds -}}
{{- end -}}
{{- end -}}

{{- define "nvcf.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 10001
runAsGroup: 10001
fsGroup: 10001
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "nvcf.containerSecurityContext" -}}
runAsNonRoot: true
runAsUser: 10001
runAsGroup: 10001
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities:
  drop: [ALL]
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/* What every service reads (docs/configuration.md, "Every service"). */}}
{{- define "nvcf.commonEnv" -}}
- name: HOST
  value: 0.0.0.0
- name: PORT
  value: {{ .port | quote }}
- name: LOG_LEVEL
  value: {{ .root.Values.logLevel | quote }}
- name: LOG_FORMAT
  value: {{ .root.Values.logFormat | quote }}
{{- with .root.Values.tracing }}
{{- if .otlpEndpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ .otlpEndpoint | quote }}
- name: OTEL_EXPORTER_OTLP_PROTOCOL
  value: {{ .otlpProtocol | quote }}
- name: OTEL_TRACES_SAMPLER
  value: {{ .sampler | quote }}
- name: OTEL_TRACES_SAMPLER_ARG
  value: {{ .samplerArg | quote }}
{{- end }}
{{- end }}
- name: DRAIN_GRACE_MS
  value: {{ .root.Values.drainGraceMs | int64 | quote }}
- name: NATS_URL
  value: {{ .root.Values.nats.url | quote }}
- name: NATS_STREAM_REPLICAS
  value: {{ .root.Values.nats.streamReplicas | quote }}
- name: NVCF_INTERNAL_SECRET_FILE
  value: /etc/nvcf/secrets/internal/{{ .root.Values.secrets.internal.key }}
{{- end -}}

{{- define "nvcf.cassandraEnv" -}}
- name: CASSANDRA_CONTACT_POINTS
  value: {{ .Values.cassandra.contactPoints | quote }}
- name: CASSANDRA_LOCAL_DC
  value: {{ .Values.cassandra.localDc | quote }}
- name: CASSANDRA_KEYSPACE_SUFFIX
  value: {{ .Values.cassandra.keyspaceSuffix | quote }}
{{- end -}}

{{/* extraEnv may add variables, never replace one the chart sets (auth above all). */}}
{{- define "nvcf.extraEnv" -}}
{{- $reserved := list "HOST" "PORT" "LOG_LEVEL" "LOG_FORMAT" "DRAIN_GRACE_MS" "NATS_URL" "NATS_STREAM_REPLICAS" "NVCF_INTERNAL_SECRET" "NVCF_INTERNAL_SECRET_FILE" "NVCF_CURSOR_SECRET" "NVCF_CURSOR_SECRET_FILE" "AUTH_MODE" "AUTH_TOKENS" "JWT_ISSUER" "JWT_AUDIENCE" "JWT_JWKS_URL" "METRICS_HOST" "METRICS_PORT" "SUPERGRAPH_FILE" "CASSANDRA_CONTACT_POINTS" "CASSANDRA_LOCAL_DC" "CASSANDRA_KEYSPACE_SUFFIX" "ICMS_URL" "NVCF_URL" "NVCA_STATUS_URL" "NVCT_URL" "ICMS_CLUSTERS_FILE" -}}
{{- range .extraEnv -}}
{{- if has .name $reserved -}}
{{- fail (printf "%s.extraEnv: %s is set by the chart; use its value instead" $.key .name) -}}
{{- end }}
- {{ toJson . }}
{{- end -}}
{{- end -}}

{{/* Startup (the listener is up), readiness (/ready: 503 while starting or draining), liveness. */}}
{{- define "nvcf.probes" -}}
startupProbe:
  httpGet: { path: /health, port: http }
  periodSeconds: 2
  timeoutSeconds: 2
  failureThreshold: 60
readinessProbe:
  httpGet: { path: /ready, port: http }
  periodSeconds: 5
  timeoutSeconds: 2
  failureThreshold: 2
livenessProbe:
  httpGet: { path: /health, port: http }
  periodSeconds: 10
  timeoutSeconds: 3
  failureThreshold: 3
{{- end -}}

{{- define "nvcf.topologySpread" -}}
{{- range .root.Values.topologySpread.topologyKeys }}
- maxSkew: {{ $.root.Values.topologySpread.maxSkew }}
  topologyKey: {{ . }}
  whenUnsatisfiable: {{ $.root.Values.topologySpread.whenUnsatisfiable }}
  labelSelector:
    matchLabels:
      {{- include "nvcf.selectorLabels" $ | nindent 6 }}
  # only the pods of the same ReplicaSet: a rollout's new pods spread among themselves
  matchLabelKeys: [pod-template-hash]
{{- end }}
{{- end -}}


{{/* The gateway's own variables (docs/configuration.md, "Gateway"). */}}
{{- define "nvcf.gatewayEnv" -}}
{{- $g := .Values.gateway -}}
- name: NVCF_URL
  value: {{ include "nvcf.url" (dict "root" . "key" "nvcf" "component" "nvcf") }}
- name: ICMS_URL
  value: {{ include "nvcf.url" (dict "root" . "key" "icms" "component" "icms") }}
- name: NVCA_STATUS_URL
  value: {{ include "nvcf.url" (dict "root" . "key" "nvcaStatus" "component" "nvca-status") }}
- name: NVCT_URL
  value: {{ include "nvcf.url" (dict "root" . "key" "nvct" "component" "nvct") }}
- name: SUPERGRAPH_FILE
  value: /etc/nvcf/supergraph/supergraph.graphql
# /metrics names tenants: its own port, reachable in the pod network for scraping only
- name: METRICS_HOST
  value: 0.0.0.0
- name: METRICS_PORT
  value: {{ $g.metricsPort | quote }}
{{- if .Values.auth.dev.enabled }}
{{- if not .Values.auth.dev.tokensSecret.name }}
{{- fail "auth.dev.enabled needs auth.dev.tokensSecret.name: the dev tokens come from a Secret, never from values" }}
{{- end }}
- name: AUTH_MODE
  value: dev
- name: AUTH_TOKENS
  valueFrom:
    secretKeyRef:
      name: {{ .Values.auth.dev.tokensSecret.name }}
      key: {{ .Values.auth.dev.tokensSecret.key }}
{{- else }}
- name: AUTH_MODE
  value: jwt
- name: JWT_ISSUER
  value: {{ .Values.auth.jwt.issuer | quote }}
- name: JWT_AUDIENCE
  value: {{ .Values.auth.jwt.audience | quote }}
- name: JWT_JWKS_URL
  value: {{ .Values.auth.jwt.jwksUrl | quote }}
- name: JWT_TENANT_CLAIM
  value: {{ .Values.auth.jwt.tenantClaim | quote }}
- name: JWT_INTROSPECTION_CLAIM
  value: {{ .Values.auth.jwt.introspectionClaim | quote }}
{{- end }}
{{- with .Values.auth.introspection }}
- name: INTROSPECTION
  value: {{ . | quote }}
{{- end }}
{{- with .Values.auth.graphiql }}
- name: GRAPHIQL
  value: {{ . | quote }}
{{- end }}
{{- with .Values.auth.console }}
- name: CONSOLE
  value: {{ . | quote }}
{{- end }}
{{- range $name, $value := $g.limits }}
- name: {{ $name }}
  value: {{ $value | int64 | quote }}
{{- end }}
{{- end -}}
