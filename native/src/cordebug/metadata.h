// IMetaDataImport, declared up to the last method the project calls (cor.h method order).
#pragma once

#include "../com/com.h"

namespace dbg {

using HCORENUM = void*;

struct IMetaDataImport : IUnknown {
  virtual void DBG_STDCALL CloseEnum(HCORENUM e) = 0;
  virtual HRESULT DBG_STDCALL CountEnum(HCORENUM e, ULONG* count) = 0;
  virtual HRESULT DBG_STDCALL ResetEnum(HCORENUM e, ULONG position) = 0;
  virtual HRESULT DBG_STDCALL EnumTypeDefs(HCORENUM* e, mdTypeDef* typeDefs, ULONG max, ULONG* count) = 0;
  virtual HRESULT DBG_STDCALL EnumInterfaceImpls(HCORENUM* e, mdTypeDef td, mdToken* impls, ULONG max, ULONG* count) = 0;
  virtual HRESULT DBG_STDCALL EnumTypeRefs(HCORENUM* e, mdToken* typeRefs, ULONG max, ULONG* count) = 0;
  virtual HRESULT DBG_STDCALL FindTypeDefByName(const WCHAR* name, mdToken enclosing, mdTypeDef* td) = 0;
  virtual HRESULT DBG_STDCALL GetScopeProps(WCHAR* name, ULONG cchName, ULONG* pchName, GUID* mvid) = 0;
  virtual HRESULT DBG_STDCALL GetModuleFromScope(mdToken* module) = 0;
  virtual HRESULT DBG_STDCALL GetTypeDefProps(mdTypeDef td, WCHAR* name, ULONG cchName, ULONG* pchName, DWORD* flags, mdToken* extends) = 0;
  virtual HRESULT DBG_STDCALL GetInterfaceImplProps(mdToken impl, mdTypeDef* cls, mdToken* iface) = 0;
  virtual HRESULT DBG_STDCALL GetTypeRefProps(mdToken tr, mdToken* scope, WCHAR* name, ULONG cchName, ULONG* pchName) = 0;
  virtual HRESULT DBG_STDCALL ResolveTypeRef(mdToken tr, REFIID iid, IUnknown** scope, mdTypeDef* td) = 0;
  virtual HRESULT DBG_STDCALL EnumMembers(HCORENUM* e, mdTypeDef td, mdToken* members, ULONG max, ULONG* count) = 0;
  virtual HRESULT DBG_STDCALL EnumMembersWithName(HCORENUM* e, mdTypeDef td, const WCHAR* name, mdToken* members, ULONG max, ULONG* count) = 0;
  virtual HRESULT DBG_STDCALL EnumMethods(HCORENUM* e, mdTypeDef td, mdToken* methods, ULONG max, ULONG* count) = 0;
  virtual HRESULT DBG_STDCALL EnumMethodsWithName(HCORENUM* e, mdTypeDef td, const WCHAR* name, mdToken* methods, ULONG max, ULONG* count) = 0;
  virtual HRESULT DBG_STDCALL EnumFields(HCORENUM* e, mdTypeDef td, mdToken* fields, ULONG max, ULONG* count) = 0;
  virtual HRESULT DBG_STDCALL EnumFieldsWithName(HCORENUM* e, mdTypeDef td, const WCHAR* name, mdToken* fields, ULONG max, ULONG* count) = 0;
  virtual HRESULT DBG_STDCALL EnumParams(HCORENUM* e, mdToken method, mdToken* params, ULONG max, ULONG* count) = 0;
  virtual HRESULT DBG_STDCALL EnumMemberRefs(HCORENUM* e, mdToken parent, mdToken* refs, ULONG max, ULONG* count) = 0;
  virtual HRESULT DBG_STDCALL EnumMethodImpls(HCORENUM* e, mdTypeDef td, mdToken* bodies, mdToken* decls, ULONG max, ULONG* count) = 0;
  virtual HRESULT DBG_STDCALL EnumPermissionSets(HCORENUM* e, mdToken tk, DWORD actions, mdToken* permissions, ULONG max, ULONG* count) = 0;
  virtual HRESULT DBG_STDCALL FindMember(mdTypeDef td, const WCHAR* name, const BYTE* sig, ULONG sigSize, mdToken* member) = 0;
  virtual HRESULT DBG_STDCALL FindMethod(mdTypeDef td, const WCHAR* name, const BYTE* sig, ULONG sigSize, mdToken* method) = 0;
  virtual HRESULT DBG_STDCALL FindField(mdTypeDef td, const WCHAR* name, const BYTE* sig, ULONG sigSize, mdToken* field) = 0;
};

constexpr GUID IID_IMetaDataImport = {0x7dac8207, 0xd3ae, 0x4c75, {0x9b, 0x67, 0x92, 0x80, 0x1a, 0x49, 0x7d, 0x44}};

}  // namespace dbg
