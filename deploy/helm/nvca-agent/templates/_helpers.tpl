{{- define "nvca.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "nvca.clusterId" -}}
{{- default .Release.Name .Values.clusterId -}}
{{- end -}}

{{- define "nvca.commonLabels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: nvcf
{{- end -}}

{{- define "nvca.labels" -}}
{{ include "nvca.selectorLabels" . }}
{{ include "nvca.commonLabels" . }}
{{- end -}}

{{- define "nvca.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: agent
{{- end -}}

{{- define "nvca.serviceAccountName" -}}
{{- default (include "nvca.fullname" .) .Values.serviceAccount.name -}}
{{- end -}}

{{- /* The admission webhook's objects: its Deployment, Service, Secret, and the cluster-scoped configuration. */ -}}
{{- define "nvca.webhook.fullname" -}}
{{- printf "%s-webhook" (include "nvca.fullname" .) -}}
{{- end -}}

{{- define "nvca.webhook.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: webhook
{{- end -}}

{{- define "nvca.webhook.labels" -}}
{{ include "nvca.webhook.selectorLabels" . }}
{{ include "nvca.commonLabels" . }}
{{- end -}}

{{- /* Where cert-manager, or the chart, keeps the serving certificate (tls.crt, tls.key, ca.crt). */ -}}
{{- define "nvca.webhook.tlsSecret" -}}
{{- printf "%s-tls" (include "nvca.webhook.fullname" .) -}}
{{- end -}}

{{- define "nvca.webhook.dnsNames" -}}
{{- $svc := include "nvca.webhook.fullname" . -}}
{{- list $svc (printf "%s.%s" $svc .Release.Namespace) (printf "%s.%s.svc" $svc .Release.Namespace) (printf "%s.%s.svc.cluster.local" $svc .Release.Namespace) | toJson -}}
{{- end -}}
