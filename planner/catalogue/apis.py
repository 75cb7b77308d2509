"""VM types API: list, create, read, change and delete the team's catalogue."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from planner.core.apis import team_filter, validated
from planner.core.pagination import paginated_response
from planner.teams.selectors import team_or_default

from . import selectors, services
from .serializers import VMTypeInputSerializer, VMTypeOutputSerializer

TEAM_PARAM = OpenApiParameter("team", int, description="Only this team's objects.")


class VMTypeListApi(APIView):
    @extend_schema(parameters=[TEAM_PARAM], responses=VMTypeOutputSerializer(many=True), tags=["vm-types"])
    def get(self, request: Request) -> Response:
        qs = selectors.vm_type_list(user=request.user, team=team_filter(request))
        return paginated_response(
            request=request, view=self, queryset=qs, serializer_class=VMTypeOutputSerializer
        )

    @extend_schema(request=VMTypeInputSerializer, responses={201: VMTypeOutputSerializer}, tags=["vm-types"])
    def post(self, request: Request) -> Response:
        data = validated(VMTypeInputSerializer, request)
        team = team_or_default(user=request.user, team=data.pop("team", None))
        vm_type = services.vm_type_create(team=team, user=request.user, **data)
        return Response(VMTypeOutputSerializer(vm_type).data, status=status.HTTP_201_CREATED)


class VMTypeDetailApi(APIView):
    @extend_schema(responses=VMTypeOutputSerializer, tags=["vm-types"])
    def get(self, request: Request, pk: int) -> Response:
        return Response(VMTypeOutputSerializer(selectors.vm_type_get(user=request.user, pk=pk)).data)

    @extend_schema(request=VMTypeInputSerializer, responses=VMTypeOutputSerializer, tags=["vm-types"])
    def put(self, request: Request, pk: int) -> Response:
        return self._update(request, pk, partial=False)

    @extend_schema(request=VMTypeInputSerializer, responses=VMTypeOutputSerializer, tags=["vm-types"])
    def patch(self, request: Request, pk: int) -> Response:
        return self._update(request, pk, partial=True)

    def _update(self, request: Request, pk: int, *, partial: bool) -> Response:
        vm_type = selectors.vm_type_get(user=request.user, pk=pk)
        data = validated(VMTypeInputSerializer, request, partial=partial)
        data.pop("team", None)  # a VM type stays in its team
        vm_type = services.vm_type_update(vm_type=vm_type, user=request.user, **data)
        return Response(VMTypeOutputSerializer(vm_type).data)

    @extend_schema(responses={204: None}, tags=["vm-types"])
    def delete(self, request: Request, pk: int) -> Response:
        services.vm_type_delete(vm_type=selectors.vm_type_get(user=request.user, pk=pk), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
