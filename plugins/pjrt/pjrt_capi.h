/*
 * pjrt_capi.h - the subset of the OpenXLA PJRT C API that the bridge
 * uses, declared here from the API's published layout (the header is
 * not packaged anywhere we install from, and we never copy it).
 *
 * Layout rules we rely on (PJRT C API major 0):
 * - Every argument struct starts with size_t struct_size and a pointer
 *   to an extension chain; the caller sets struct_size to the size up to
 *   and including the last field it knows (PJRT_SIZE below), so a newer
 *   plugin knows which fields we left out.
 * - PJRT_Api is one table of function pointers in a fixed order; fields
 *   are only appended within a major version. Slots we do not call are
 *   declared as opaque padding so the offsets of the ones we call match.
 * - Errors are plugin-owned objects read with PJRT_Error_Message and
 *   freed with PJRT_Error_Destroy.
 */
#ifndef RLX_PJRT_CAPI_H
#define RLX_PJRT_CAPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The API major this bridge was written for, and the minor of the
 * published layout these declarations follow (its argument structs carry
 * every field used here; the table's size is checked as well). Tested
 * against 0.115 (JAX 0.11's CUDA plugin). */
#define RLXP_PJRT_MAJOR 0
#define RLXP_PJRT_MIN_MINOR 33

/* Size of a struct up to and including FIELD: what struct_size holds. */
#define PJRT_SIZE(type, field) \
    (offsetof(type, field) + sizeof(((type *)0)->field))

typedef struct PJRT_Error PJRT_Error;
typedef struct PJRT_Event PJRT_Event;
typedef struct PJRT_Client PJRT_Client;
typedef struct PJRT_Device PJRT_Device;
typedef struct PJRT_Memory PJRT_Memory;
typedef struct PJRT_DeviceDescription PJRT_DeviceDescription;
typedef struct PJRT_LoadedExecutable PJRT_LoadedExecutable;
typedef struct PJRT_Buffer PJRT_Buffer;

typedef struct {
    size_t struct_size;
    void *ext;
    int major_version;
    int minor_version;
} PJRT_Api_Version;

/* Error codes: absl status codes. */
enum {
    PJRT_CODE_INVALID_ARGUMENT = 3,
    PJRT_CODE_NOT_FOUND = 5,
    PJRT_CODE_RESOURCE_EXHAUSTED = 8,
    PJRT_CODE_FAILED_PRECONDITION = 9,
    PJRT_CODE_UNIMPLEMENTED = 12,
    PJRT_CODE_INTERNAL = 13,
    PJRT_CODE_UNAVAILABLE = 14
};

typedef struct {
    size_t struct_size;
    void *ext;
    PJRT_Error *error;
} PJRT_Error_Destroy_Args;

typedef struct {
    size_t struct_size;
    void *ext;
    const PJRT_Error *error;
    const char *message;   /* out, lives as long as the error */
    size_t message_size;   /* out */
} PJRT_Error_Message_Args;

typedef struct {
    size_t struct_size;
    void *ext;
    const PJRT_Error *error;
    int code;              /* out: PJRT_Error_Code, an int-sized enum */
} PJRT_Error_GetCode_Args;

typedef enum {
    PJRT_NamedValue_kString = 0,
    PJRT_NamedValue_kInt64 = 1,
    PJRT_NamedValue_kInt64List = 2,
    PJRT_NamedValue_kFloat = 3,
    PJRT_NamedValue_kBool = 4
} PJRT_NamedValue_Type;

typedef struct {
    size_t struct_size;
    void *ext;
    const char *name;
    size_t name_size;
    PJRT_NamedValue_Type type;
    union {
        const char *string_value;
        int64_t int64_value;
        const int64_t *int64_array_value;
        float float_value;
        bool bool_value;
    } v;
    size_t value_size;     /* elements for lists and strings, else 1 */
} PJRT_NamedValue;

typedef struct {
    size_t struct_size;
    void *ext;
} PJRT_Plugin_Initialize_Args;

typedef struct {
    size_t struct_size;
    void *ext;
    PJRT_Event *event;
} PJRT_Event_Args; /* Destroy and Await take the same layout */

typedef struct {
    size_t struct_size;
    void *ext;
    PJRT_NamedValue *create_options;
    size_t num_options;
    void *kv_get_callback;
    void *kv_get_user_arg;
    void *kv_put_callback;
    void *kv_put_user_arg;
    PJRT_Client *client;   /* out */
} PJRT_Client_Create_Args;

typedef struct {
    size_t struct_size;
    void *ext;
    PJRT_Client *client;
} PJRT_Client_Destroy_Args;

typedef struct {
    size_t struct_size;
    void *ext;
    PJRT_Client *client;
    const char *name;      /* out: platform name or version */
    size_t name_size;      /* out */
} PJRT_Client_String_Args; /* PlatformName and PlatformVersion */

typedef struct {
    size_t struct_size;
    void *ext;
    PJRT_Client *client;
    PJRT_Device **devices; /* out, owned by the client */
    size_t num_devices;    /* out */
} PJRT_Client_AddressableDevices_Args;

typedef struct {
    size_t struct_size;
    void *ext;
    char *code;
    size_t code_size;
    const char *format;    /* "mlir": MLIR text or bytecode */
    size_t format_size;
} PJRT_Program;

typedef struct {
    size_t struct_size;
    void *ext;
    PJRT_Client *client;
    PJRT_Program *program;
    const char *compile_options;   /* serialized CompileOptionsProto */
    size_t compile_options_size;
    PJRT_LoadedExecutable *executable; /* out */
} PJRT_Client_Compile_Args;

/* Element types, in the API's enum order. */
typedef enum {
    PJRT_Buffer_Type_INVALID = 0,
    PJRT_Buffer_Type_PRED = 1,
    PJRT_Buffer_Type_S8 = 2,
    PJRT_Buffer_Type_S16 = 3,
    PJRT_Buffer_Type_S32 = 4,
    PJRT_Buffer_Type_S64 = 5,
    PJRT_Buffer_Type_U8 = 6,
    PJRT_Buffer_Type_U16 = 7,
    PJRT_Buffer_Type_U32 = 8,
    PJRT_Buffer_Type_U64 = 9,
    PJRT_Buffer_Type_F16 = 10,
    PJRT_Buffer_Type_F32 = 11,
    PJRT_Buffer_Type_F64 = 12,
    PJRT_Buffer_Type_BF16 = 13
} PJRT_Buffer_Type;

/* kImmutableOnlyDuringCall: the plugin copies before returning. */
#define PJRT_HOST_BUFFER_IMMUTABLE_ONLY_DURING_CALL 0

typedef struct {
    size_t struct_size;
    void *ext;
    PJRT_Client *client;
    const void *data;
    PJRT_Buffer_Type type;
    const int64_t *dims;
    size_t num_dims;
    const int64_t *byte_strides;
    size_t num_byte_strides;
    int host_buffer_semantics;
    PJRT_Device *device;
    PJRT_Memory *memory;
    void *device_layout;
    PJRT_Event *done_with_host_buffer; /* out */
    PJRT_Buffer *buffer;               /* out */
} PJRT_Client_BufferFromHostBuffer_Args;

typedef struct {
    size_t struct_size;
    void *ext;
    PJRT_DeviceDescription *desc;
    int id;                /* out */
} PJRT_DeviceDescription_Id_Args;

typedef struct {
    size_t struct_size;
    void *ext;
    PJRT_DeviceDescription *desc;
    const char *str;       /* out: kind or to_string */
    size_t str_size;       /* out */
} PJRT_DeviceDescription_String_Args;

typedef struct {
    size_t struct_size;
    void *ext;
    PJRT_Device *device;
    PJRT_DeviceDescription *desc; /* out */
} PJRT_Device_GetDescription_Args;

typedef struct {
    size_t struct_size;
    void *ext;
    PJRT_Device *device;
    int64_t bytes_in_use;
    int64_t peak_bytes_in_use;
    bool peak_bytes_in_use_is_set;
    int64_t num_allocs;
    bool num_allocs_is_set;
    int64_t largest_alloc_size;
    bool largest_alloc_size_is_set;
    int64_t bytes_limit;
    bool bytes_limit_is_set;
} PJRT_Device_MemoryStats_Args; /* we know the fields up to bytes_limit */

typedef struct {
    size_t struct_size;
    void *ext;
    PJRT_LoadedExecutable *executable;
} PJRT_LoadedExecutable_Destroy_Args;

typedef struct {
    size_t struct_size;
    void *ext;
    void **send_callbacks;
    void **recv_callbacks;
    size_t num_send_ops;
    size_t num_recv_ops;
    int launch_id;
} PJRT_ExecuteOptions;

typedef struct {
    size_t struct_size;
    void *ext;
    PJRT_LoadedExecutable *executable;
    PJRT_ExecuteOptions *options;
    PJRT_Buffer *const *const *argument_lists; /* [devices][args] */
    size_t num_devices;
    size_t num_args;
    PJRT_Buffer **const *output_lists;         /* [devices][outputs] */
    PJRT_Event **device_complete_events;
    PJRT_Device *execute_device;
} PJRT_LoadedExecutable_Execute_Args;

typedef struct {
    size_t struct_size;
    void *ext;
    PJRT_Buffer *buffer;
} PJRT_Buffer_Destroy_Args;

typedef struct {
    size_t struct_size;
    void *ext;
    PJRT_Buffer *src;
    void *host_layout;
    void *dst;
    size_t dst_size;
    PJRT_Event *event;     /* out */
} PJRT_Buffer_ToHostBuffer_Args;

/* Declares an argument struct NAME of TYPE with zeroed room after the
 * fields we know: plugins reject a struct_size smaller than the one
 * they were compiled with, and newer fields left zero mean "absent". */
#define RLXP_ARGS(type, name)                                              \
    union {                                                                \
        type a;                                                            \
        unsigned char room[sizeof(type) + 256];                            \
    } name##_u;                                                            \
    memset(&name##_u, 0, sizeof name##_u);                                 \
    type *name = &name##_u.a;                                              \
    name->struct_size = sizeof name##_u

#define RLXP_FN(name, args) PJRT_Error *(*name)(args *a)

/* The function table, in the API's order up to the last slot we call. */
typedef struct PJRT_Api {
    size_t struct_size;
    void *ext;
    PJRT_Api_Version pjrt_api_version;
    void (*Error_Destroy)(PJRT_Error_Destroy_Args *a);          /* 0 */
    void (*Error_Message)(PJRT_Error_Message_Args *a);
    RLXP_FN(Error_GetCode, PJRT_Error_GetCode_Args);
    RLXP_FN(Plugin_Initialize, PJRT_Plugin_Initialize_Args);
    void *Plugin_Attributes;
    RLXP_FN(Event_Destroy, PJRT_Event_Args);                     /* 5 */
    void *Event_IsReady;
    void *Event_Error;
    RLXP_FN(Event_Await, PJRT_Event_Args);
    void *Event_OnReady;
    RLXP_FN(Client_Create, PJRT_Client_Create_Args);             /* 10 */
    RLXP_FN(Client_Destroy, PJRT_Client_Destroy_Args);
    RLXP_FN(Client_PlatformName, PJRT_Client_String_Args);
    void *Client_ProcessIndex;
    RLXP_FN(Client_PlatformVersion, PJRT_Client_String_Args);
    void *Client_Devices;                                        /* 15 */
    RLXP_FN(Client_AddressableDevices,
            PJRT_Client_AddressableDevices_Args);
    void *Client_LookupDevice;
    void *Client_LookupAddressableDevice;
    void *Client_AddressableMemories;
    RLXP_FN(Client_Compile, PJRT_Client_Compile_Args);           /* 20 */
    void *Client_DefaultDeviceAssignment;
    RLXP_FN(Client_BufferFromHostBuffer,
            PJRT_Client_BufferFromHostBuffer_Args);
    RLXP_FN(DeviceDescription_Id, PJRT_DeviceDescription_Id_Args);
    void *DeviceDescription_ProcessIndex;
    void *DeviceDescription_Attributes;                          /* 25 */
    RLXP_FN(DeviceDescription_Kind, PJRT_DeviceDescription_String_Args);
    void *DeviceDescription_DebugString;
    RLXP_FN(DeviceDescription_ToString,
            PJRT_DeviceDescription_String_Args);
    RLXP_FN(Device_GetDescription, PJRT_Device_GetDescription_Args);
    void *Device_IsAddressable;                                  /* 30 */
    void *Device_LocalHardwareId;
    void *Device_AddressableMemories;
    void *Device_DefaultMemory;
    RLXP_FN(Device_MemoryStats, PJRT_Device_MemoryStats_Args);
    void *Memory_slots[5];                                       /* 35 */
    void *Executable_slots[10];                                  /* 40 */
    RLXP_FN(LoadedExecutable_Destroy,                            /* 50 */
            PJRT_LoadedExecutable_Destroy_Args);
    void *LoadedExecutable_GetExecutable;
    void *LoadedExecutable_AddressableDevices;
    void *LoadedExecutable_Delete;
    void *LoadedExecutable_IsDeleted;
    RLXP_FN(LoadedExecutable_Execute,                            /* 55 */
            PJRT_LoadedExecutable_Execute_Args);
    void *Executable_DeserializeAndLoad;
    void *LoadedExecutable_Fingerprint;
    RLXP_FN(Buffer_Destroy, PJRT_Buffer_Destroy_Args);           /* 58 */
    void *Buffer_slots[11];                                      /* 59 */
    RLXP_FN(Buffer_ToHostBuffer, PJRT_Buffer_ToHostBuffer_Args); /* 70 */
} PJRT_Api;

typedef const PJRT_Api *(*PJRT_GetApi_fn)(void);
#define RLXP_GET_API_SYMBOL "GetPjrtApi"

#endif /* RLX_PJRT_CAPI_H */
